/**
 * Sample rows of the demo application (database/demo/bookstore.json), imported with the model on
 * a first start (MODELGATE_DEMO=false turns both off): a few dozen rows per entity with their
 * relations filled, generated deterministically (the same rows on every machine) and written
 * through the data layer, so they obey the model's rules like any client's writes.
 */
import type { UnconstrainedDataManager } from '#engine/data/data_manager'

/** Deterministic pseudo-random numbers (a linear congruential generator). */
function generator(seed: number) {
  let state = seed
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  }
}

const id = (kind: number, n: number) =>
  `00000000-0000-4000-8${kind.toString(16).padStart(3, '0')}-${n.toString(16).padStart(12, '0')}`
const ref = (value: string | number) => ({ id: value })
const day = (year: number, n: number) =>
  new Date(Date.UTC(year, n % 12, (n % 27) + 1)).toISOString().slice(0, 10)

const COUNTRIES = [
  ['DE', 'Germany', 'DEU', true],
  ['FR', 'France', 'FRA', true],
  ['IT', 'Italy', 'ITA', true],
  ['ES', 'Spain', 'ESP', true],
  ['NL', 'Netherlands', 'NLD', true],
  ['SE', 'Sweden', 'SWE', true],
  ['GB', 'United Kingdom', 'GBR', false],
  ['US', 'United States', 'USA', false],
  ['CA', 'Canada', 'CAN', false],
  ['JP', 'Japan', 'JPN', false],
] as const
const CURRENCIES = [
  ['EUR', 'Euro', '€', '978', 2],
  ['USD', 'US Dollar', '$', '840', 2],
  ['GBP', 'Pound Sterling', '£', '826', 2],
  ['JPY', 'Yen', '¥', '392', 0],
] as const
const TAGS = [
  'bestseller',
  'classic',
  'new',
  'award',
  'signed',
  'illustrated',
  'series',
  'staff-pick',
]
const FIRST = ['Ada', 'Ben', 'Clara', 'David', 'Elena', 'Felix', 'Grace', 'Hugo', 'Ines', 'Jonas']
const LAST = ['Adler', 'Berg', 'Costa', 'Dumas', 'Eriksen', 'Fischer', 'Garcia', 'Hoffmann']
const WORDS = ['River', 'Night', 'Garden', 'Atlas', 'Winter', 'Signal', 'Harbor', 'Echo', 'Glass']
const GENRES = ['FICTION', 'NON_FICTION', 'SCIENCE', 'CHILDREN', 'POETRY']
const STATUSES = ['NEW', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED']
const CITIES = [
  ['Berlin', 'DE'],
  ['Lyon', 'FR'],
  ['Milano', 'IT'],
  ['London', 'GB'],
  ['Boston', 'US'],
  ['Osaka', 'JP'],
] as const

export const DEMO_ROW_COUNTS = {
  countries: COUNTRIES.length,
  books: 40,
  customers: 24,
  orders: 30,
}

/** Stores a file and returns its fileRef (the demo's covers go through the files storage). */
export type SaveFile = (name: string, content: string) => Promise<string>

/** A plain SVG cover with the book's title. */
function cover(title: string, hue: number) {
  const text = title.replace(/[<>&]/g, '')
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="300">` +
    `<rect width="200" height="300" fill="hsl(${hue},45%,40%)"/>` +
    `<text x="100" y="150" font-family="serif" font-size="16" fill="#fff" text-anchor="middle">${text}</text></svg>`
  )
}

/**
 * Writes the sample rows (all entities, in dependency order) and the covers of the first books
 * (files). Returns the rows written.
 */
export async function importDemoData(
  data: UnconstrainedDataManager,
  saveFile: SaveFile
): Promise<number> {
  const r = generator(20261125)
  let written = 0
  const create = async (entity: string, rows: Record<string, unknown>[]) => {
    try {
      const created = await data.createMany(entity, rows)
      written += rows.length
      return created
    } catch (error) {
      // The data layer's own answer (its validation array), so that a broken sample says why.
      const body = (error as { toJSON?: () => unknown }).toJSON?.() ?? (error as Error).message
      throw new Error(`demo rows of ${entity} refused: ${JSON.stringify(body).slice(0, 500)}`)
    }
  }
  const address = (n: number) => {
    const [city, country] = CITIES[n % CITIES.length]
    return {
      street: `${r.pick(WORDS)} Street ${r.int(1, 180)}`,
      postalCode: String(r.int(10000, 99999)),
      city,
      country: ref(country),
    }
  }

  await create(
    'ref$Country',
    COUNTRIES.map(([code, name, alpha3, euMember]) => ({ id: code, name, alpha3, euMember }))
  )
  await create(
    'ref$Currency',
    CURRENCIES.map(([code, name, symbol, numericCode, minorUnits]) => ({
      id: code,
      ...{ name, symbol, numericCode, minorUnits },
    }))
  )
  await create(
    'bookstore_Tag',
    TAGS.map((name, n) => ({
      id: id(1, n),
      name,
      color: r.pick(['#d62728', '#1f77b4', '#2ca02c', '#bcbd22']),
    }))
  )
  await create(
    'bookstore_Publisher',
    Array.from({ length: 8 }, (_, n) => ({
      id: id(2, n),
      name: `${r.pick(WORDS)} ${r.pick(['Press', 'Books', 'House', 'Verlag'])} ${n + 1}`,
      website: `https://publisher${n + 1}.example.com`,
      foundedOn: day(1900 + n * 11, n),
      country: ref(COUNTRIES[n % COUNTRIES.length][0]),
    }))
  )
  await create(
    'bookstore_Author',
    Array.from({ length: 24 }, (_, n) => ({
      id: id(3, n),
      firstName: FIRST[n % FIRST.length],
      lastName: `${LAST[n % LAST.length]}${n >= LAST.length ? `-${Math.floor(n / LAST.length)}` : ''}`,
      birthDate: day(1940 + n, n),
      biography: `Author of ${r.int(2, 14)} books about ${r.pick(WORDS).toLowerCase()}s.`,
      nationality: ref(r.pick(COUNTRIES)[0]),
    }))
  )
  const books = Array.from({ length: DEMO_ROW_COUNTS.books }, (_, n) => ({
    id: id(4, n),
    title: `The ${r.pick(WORDS)} of ${r.pick(WORDS)}${n >= 9 ? ` ${n}` : ''}`,
    isbn: `9783${String(100000 + n * 7919).slice(-6)}${String(n).padStart(3, '0')}`,
    genre: GENRES[n % GENRES.length],
    publicationDate: day(1990 + (n % 34), n),
    pageCount: r.int(96, 720),
    price: (r.int(699, 4999) / 100).toFixed(2),
    weightKg: r.int(150, 1400) / 1000,
    inPrint: r.chance(0.8),
    blurb: `A ${GENRES[n % GENRES.length].toLowerCase().replace('_', '-')} title for curious readers.`,
    metadata: { edition: r.int(1, 5), language: r.pick(['en', 'de', 'fr']) },
    currency: ref(r.pick(CURRENCIES)[0]),
    publisher: ref(id(2, n % 8)),
    authors: [ref(id(3, n % 24)), ...(r.chance(0.3) ? [ref(id(3, (n + 7) % 24))] : [])],
    tags: TAGS.filter(() => r.chance(0.25)).map((_tag, k) => ref(id(1, (n + k) % TAGS.length))),
  }))
  for (const [n, book] of books.slice(0, 12).entries())
    Object.assign(book, { cover: await saveFile(`cover-${n + 1}.svg`, cover(book.title, n * 30)) })
  await create('bookstore_Book', books)
  const warehouses = await create(
    'bookstore_Warehouse',
    ['NORTH', 'SOUTH', 'EAST'].map((code, n) => ({
      code,
      name: `Warehouse ${code.toLowerCase()}`,
      opensAt: '08:00',
      closesAt: n === 2 ? '20:00' : '18:00',
      address: address(n),
    }))
  )
  await create(
    'bookstore_StockItem',
    books.slice(0, 32).map((book, n) => ({
      book: ref(book.id),
      warehouse: ref(String(warehouses[n % warehouses.length].id)),
      binCode: `B-${String(n + 1).padStart(3, '0')}`,
      quantity: r.int(0, 250),
      reorderLevel: 10,
      lastCountedAt: `2026-11-${String((n % 20) + 1).padStart(2, '0')}T09:30:00`,
    }))
  )
  const customers = Array.from({ length: DEMO_ROW_COUNTS.customers }, (_, n) => ({
    id: id(5, n),
    name: `${FIRST[(n + 3) % FIRST.length]} ${LAST[(n + 5) % LAST.length]}`,
    email: `customer${n + 1}@example.com`,
    phone: `+49 30 ${r.int(1000000, 9999999)}`,
    birthDate: day(1960 + n, n + 2),
    newsletter: r.chance(0.5),
    loyaltyPoints: r.int(0, 5000),
    preferences: { channel: r.pick(['email', 'post']) },
    address: address(n + 1),
    preferredCurrency: ref(r.pick(CURRENCIES)[0]),
  }))
  await create('bookstore_Customer', customers)
  await create(
    'bookstore_LoyaltyCard',
    customers.slice(0, 12).map((c, n) => ({
      cardNumber: `4000${String(n + 1).padStart(12, '0')}`,
      issuedOn: day(2020 + (n % 6), n),
      validUntil: day(2028, n),
      customer: ref(c.id),
    }))
  )
  await create(
    'bookstore_Order',
    Array.from({ length: DEMO_ROW_COUNTS.orders }, (_, n) => ({
      number: `ORD-2026-${String(1001 + n).padStart(6, '0')}`,
      date: day(2026, n),
      status: STATUSES[n % STATUSES.length],
      note: n % 4 === 0 ? 'Gift wrap, please.' : undefined,
      customer: ref(customers[n % customers.length].id),
      currency: ref('EUR'),
      lines: Array.from({ length: r.int(1, 3) }, (__, k) => ({
        position: k + 1,
        book: ref(books[(n * 3 + k) % books.length].id),
        quantity: r.int(1, 4),
        unitPrice: books[(n * 3 + k) % books.length].price,
        discounts:
          k === 0 && n % 5 === 0
            ? [{ discountType: 'PERCENTAGE', reason: 'Member', percent: 10 }]
            : [],
      })),
    }))
  )
  await create(
    'bookstore_Review',
    Array.from({ length: 40 }, (_, n) => ({
      book: ref(books[n % books.length].id),
      customer: ref(customers[(n * 7) % customers.length].id),
      rating: r.int(1, 5),
      headline: r.pick(['Loved it', 'Solid read', 'Not for me', 'A classic', 'Page-turner']),
      reviewedAt: `2026-10-${String((n % 28) + 1).padStart(2, '0')}T18:00:00`,
      verifiedPurchase: r.chance(0.6),
    }))
  )
  return written
}
