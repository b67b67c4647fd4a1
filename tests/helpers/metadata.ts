/**
 * Shared fixtures of the metadata API tests (tests/functional/*metadata.spec.ts): the demo
 * application loaded into an empty database, a client-credentials token, and the documents the
 * reference (8.1, 3.3) leads us to expect for the demo's bookstore_Order.
 */
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { accessToken, bearer, makeClient, raw } from '#tests/helpers/resource_server'
import { demoDocument } from '#tests/unit/_fixtures'

export const M = '/rest/metadata'
let token = ''

/** Empty database + the demo application (+ extra document sections) + a fresh token. */
export async function loadDemo(extra: Record<string, unknown> = {}) {
  await resetDatabase()
  await applyDoc({ ...(await demoDocument()), ...extra })
  token = (await accessToken(await makeClient())).token
}

/** GET with the current token. */
export const get = (path: string, headers: Record<string, string> = {}) =>
  raw(path, { headers: { ...bearer(token), ...headers } })

export const PROPERTY_KEYS = [
  'name',
  'attributeType',
  'type',
  'cardinality',
  'mandatory',
  'readOnly',
  'description',
  'persistent',
  'transient',
]

export type Kind = 'DATATYPE' | 'ENUM' | 'ASSOCIATION' | 'COMPOSITION'
export function prop(
  name: string,
  attributeType: Kind,
  type: string,
  description: string,
  flags: { cardinality?: string; mandatory?: boolean; readOnly?: boolean; transient?: boolean } = {}
) {
  return {
    name,
    attributeType,
    type,
    cardinality: flags.cardinality ?? 'NONE',
    mandatory: flags.mandatory ?? false,
    readOnly: flags.readOnly ?? false,
    description,
    persistent: !flags.transient,
    transient: !!flags.transient,
  }
}
export const MANDATORY = { mandatory: true }

export const ORDER = {
  entityName: 'bookstore_Order',
  ancestor: null,
  properties: [
    prop('id', 'DATATYPE', 'uuid', 'Id', MANDATORY),
    prop('number', 'DATATYPE', 'string', 'Number', MANDATORY),
    prop('date', 'DATATYPE', 'localDate', 'Date', MANDATORY),
    prop('placedAt', 'DATATYPE', 'offsetDateTime', 'Placed at'),
    prop('status', 'ENUM', 'com.example.bookstore.OrderStatus', 'Status', MANDATORY),
    prop('amount', 'DATATYPE', 'decimal', 'Amount'),
    prop('note', 'DATATYPE', 'string', 'Note'),
    prop('invoice', 'DATATYPE', 'fileRef', 'Invoice'),
    prop('customer', 'ASSOCIATION', 'bookstore_Customer', 'Customer', {
      cardinality: 'MANY_TO_ONE',
      mandatory: true,
    }),
    prop('currency', 'ASSOCIATION', 'ref$Currency', 'Currency', {
      cardinality: 'MANY_TO_ONE',
      mandatory: true,
    }),
    prop('shippingAddress', 'COMPOSITION', 'bookstore_Address', 'Shipping address', {
      cardinality: 'ONE_TO_ONE',
    }),
    prop('lines', 'COMPOSITION', 'bookstore_OrderLine', 'Lines', { cardinality: 'ONE_TO_MANY' }),
    prop('total', 'DATATYPE', 'decimal', 'Total', { readOnly: true, transient: true }),
    prop('version', 'DATATYPE', 'int', 'Version', MANDATORY),
    prop('createdBy', 'DATATYPE', 'string', 'Created by'),
    prop('createdDate', 'DATATYPE', 'offsetDateTime', 'Created date'),
    prop('lastModifiedBy', 'DATATYPE', 'string', 'Last modified by'),
    prop('lastModifiedDate', 'DATATYPE', 'offsetDateTime', 'Last modified date'),
  ],
}

export const ORDER_LOCAL = [
  'id',
  'number',
  'date',
  'placedAt',
  'status',
  'amount',
  'note',
  'invoice',
  'version',
  'createdBy',
  'createdDate',
  'lastModifiedBy',
  'lastModifiedDate',
]
export const CUSTOMER_BASE = [
  'id',
  'name',
  'email',
  'phone',
  'birthDate',
  'preferredContactTime',
  'newsletter',
  'loyaltyPoints',
  'externalRef',
  'preferences',
  'version',
  'createdBy',
  'createdDate',
  'lastModifiedBy',
  'lastModifiedDate',
  'deletedBy',
  'deletedDate',
]

export const typeOf = (entity: any, name: string) =>
  entity.properties.find((p: any) => p.name === name)?.type
