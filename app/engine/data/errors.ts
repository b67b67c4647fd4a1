/**
 * Errors of the data layer, in the upstream REST body shape `{error, details}` with their
 * status. DataManager throws them; the HTTP layer copies status and body. Strings are the
 * upstream ones (reference section 5) except where design/architecture.md section 5 says better.
 */
export class DataError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details: string,
    /** Upstream validation errors are an array body instead (reference 5.2). */
    readonly body?: unknown
  ) {
    super(`${error}: ${details}`)
  }

  toJSON() {
    return this.body ?? { error: this.error, details: this.details }
  }
}

export const entityNotFound = (entity: string) =>
  new DataError(404, 'Entity not found', `Entity ${entity} not found`)
export const instanceNotFound = (entity: string, id: string) =>
  new DataError(404, 'Entity not found', `Entity ${entity} with id ${id} not found`)
/** Reads and response plans of writes: 400 (upstream RestControllerUtils.getFetchPlan). */
export const fetchPlanNotFound = (entity: string, plan: string) =>
  new DataError(400, 'Fetch plan not found', `Fetch plan ${plan} for entity ${entity} not found`)
const FORBIDDEN_NOUN = {
  create: 'Creation',
  read: 'Reading',
  update: 'Updating',
  delete: 'Deletion',
}
/** 403 `Reading forbidden` / `Creation of the X is forbidden` ... (upstream strings, reference 5.1). */
export const forbidden = (operation: keyof typeof FORBIDDEN_NOUN, entity: string) => {
  const noun = FORBIDDEN_NOUN[operation]
  return new DataError(403, `${noun} forbidden`, `${noun} of the ${entity} is forbidden`)
}
export const badParameter = (details: string) => new DataError(400, 'Invalid parameter', details)
export const conflict = (details: string) => new DataError(409, 'Optimistic lock', details)

/**
 * 403 from a row-level rule on a write (reference 9.4: the data layer's AccessDeniedException):
 * the stored row, or the row as the request would leave it, is outside the caller's rules.
 */
export const rowForbidden = (entity: string, id: unknown, action: string) =>
  new DataError(
    403,
    'Forbidden',
    `resource: ${entity}-${String(id)}, type: entity, action: ${action}`
  )

/** 403: the body changes an attribute the caller may not modify (catalogue AZ14/AZ15). */
export const attributeForbidden = (entity: string, attribute: string) =>
  new DataError(
    403,
    'Forbidden',
    `resource: ${entity}.${attribute}, type: entityAttribute, action: modify`
  )
