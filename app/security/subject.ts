/**
 * Who a request runs as. Resolved by the resource server from the bearer token (or the
 * anonymous URL patterns) and handed to DataManager and the security layer.
 */
export interface UserSubject {
  kind: 'user'
  userId: string
  username: string
  locale: string | null
  timeZone: string | null
  /** The OAuth client the token was issued to. */
  clientId: string
  tokenId: string
}

export interface ClientSubject {
  kind: 'client'
  clientId: string
  resourceRoles: string[]
  rowLevelRoles: string[]
  tokenId: string
}

export interface AnonymousSubject {
  kind: 'anonymous'
  username: 'anonymous'
}

export type Subject = UserSubject | ClientSubject | AnonymousSubject

export const ANONYMOUS: AnonymousSubject = Object.freeze({
  kind: 'anonymous',
  username: 'anonymous',
})
