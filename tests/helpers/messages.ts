/**
 * Shared fixtures for the Messages API functional tests (not a spec file): the expected demo
 * messages in en and de, the demo application with two available locales, per-locale tokens.
 */
import { readFileSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import { DEMO_FILE } from '#start/bootstrap'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc } from '#tests/helpers/engine'
import { createClient, createUser } from '#tests/helpers/oauth'
import { bearer, raw } from '#tests/helpers/resource_server'
import { issueToken, newGrantId } from '#oauth/token_store'
import type OAuthClient from '#models/oauth_client'
import { definitions } from '#definition/main'

export const ORDER_STATUS = 'com.example.bookstore.OrderStatus'
export const { version: PRODUCT_VERSION } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8')
)

/** bookstore_Order (versioned, audited): declared attributes, then the system ones, sorted. */
export const ORDER_EN = {
  'bookstore_Order': 'Order',
  'bookstore_Order.amount': 'Amount',
  'bookstore_Order.createdBy': 'Created by',
  'bookstore_Order.createdDate': 'Created date',
  'bookstore_Order.currency': 'Currency',
  'bookstore_Order.customer': 'Customer',
  'bookstore_Order.date': 'Date',
  'bookstore_Order.id': 'Id',
  'bookstore_Order.invoice': 'Invoice',
  'bookstore_Order.lastModifiedBy': 'Last modified by',
  'bookstore_Order.lastModifiedDate': 'Last modified date',
  'bookstore_Order.lines': 'Lines',
  'bookstore_Order.note': 'Note',
  'bookstore_Order.number': 'Number',
  'bookstore_Order.placedAt': 'Placed at',
  'bookstore_Order.shippingAddress': 'Shipping address',
  'bookstore_Order.status': 'Status',
  'bookstore_Order.total': 'Total',
  'bookstore_Order.version': 'Version',
}
/** German captions where the demo has them; readable defaults elsewhere. */
export const ORDER_DE = {
  ...ORDER_EN,
  'bookstore_Order': 'Bestellung',
  'bookstore_Order.date': 'Datum',
  'bookstore_Order.lines': 'Positionen',
  'bookstore_Order.number': 'Nummer',
}
export const STATUS_EN = {
  [ORDER_STATUS]: 'Order status',
  [`${ORDER_STATUS}.CANCELLED`]: 'Cancelled',
  [`${ORDER_STATUS}.DELIVERED`]: 'Delivered',
  [`${ORDER_STATUS}.NEW`]: 'New',
  [`${ORDER_STATUS}.PAID`]: 'Paid',
  [`${ORDER_STATUS}.SHIPPED`]: 'Shipped',
}
export const STATUS_DE = {
  [ORDER_STATUS]: 'Order status',
  [`${ORDER_STATUS}.CANCELLED`]: 'Storniert',
  [`${ORDER_STATUS}.DELIVERED`]: 'Zugestellt',
  [`${ORDER_STATUS}.NEW`]: 'Neu',
  [`${ORDER_STATUS}.PAID`]: 'Bezahlt',
  [`${ORDER_STATUS}.SHIPPED`]: 'Versandt',
}

export const ENDPOINTS = [
  '/rest/messages/entities',
  '/rest/messages/entities/bookstore_Order',
  '/rest/messages/enums',
  `/rest/messages/enums/${ORDER_STATUS}`,
]

/** The demo application with the en and de locales available. */
export async function setupDemo() {
  await resetDatabase()
  const e = await engine()
  const result = await definitions(e).importFile(app.makePath(DEMO_FILE))
  if (result.status !== 'applied') throw new Error(JSON.stringify(result.problems))
  await importDoc({ settings: { 'svc.core.available-locales': 'en,de' } })
}

/** The demo application, a client and access tokens of users with the en and de locales. */
export async function setupDemoSession() {
  await setupDemo()
  const client = (await createClient()).client
  const enToken = await tokenFor(client, 'en')
  const deToken = await tokenFor(client, 'de')
  return { client, enToken, deToken }
}

export async function tokenFor(client: OAuthClient, locale: string | null) {
  const { user } = await createUser()
  user.locale = locale
  await user.save()
  const { value } = await issueToken('access', {
    clientPk: client.id,
    userId: user.id,
    grantId: newGrantId(),
    scope: null,
    ttlSeconds: 300,
  })
  return value
}

export function get(path: string, token: string, headers: Record<string, string> = {}) {
  return raw(path, { headers: { ...bearer(token), ...headers } })
}

export const sortedKeys = (map: Record<string, string>) =>
  Object.keys(map).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 5000) {
  const end = Date.now() + ms
  let value = await probe()
  while (!done(value) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    value = await probe()
  }
  return value
}
