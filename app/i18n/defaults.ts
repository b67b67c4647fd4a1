/**
 * Readable default captions derived from names, used when neither the `messages` section nor a
 * `caption` field translates an element (the same text in every locale):
 * `firstName` -> `First name`, `customerID` -> `Customer ID`, `bookstore_OrderLine` ->
 * `Order line`, `ref$Country` -> `Country`, `com.example.OrderStatus` -> `Order status`, enum
 * value `NEW` -> `New`, `FIXED_AMOUNT` -> `Fixed amount`.
 */

/** Splits camelCase / PascalCase / snake_case / SCREAMING_CASE into words. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-$.]+/)
    .filter(Boolean)
}

const isAcronym = (word: string) => word.length > 1 && /^[A-Z][A-Z0-9]*$/.test(word)

/**
 * Sentence case: the first word capitalized, the others lower case; acronyms inside a camelCase
 * name stay (`customerID`), but a name in capitals only is a constant (`NEW`, `FIXED_AMOUNT`).
 */
export function readableName(name: string): string {
  const list = words(name)
  if (list.length === 0) return name
  const constant = !/[a-z]/.test(name)
  const text = list.map((w) => (!constant && isAcronym(w) ? w : w.toLowerCase())).join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** An entity name without its project prefix: `bookstore_OrderLine` -> `Order line`. */
export function readableEntityName(name: string): string {
  const local = name.replace(/^[^_$]*[_$]/, '') || name
  return readableName(local)
}

/** An enum's simple class name: `com.example.bookstore.OrderStatus` -> `Order status`. */
export function readableEnumName(fqn: string): string {
  return readableName(fqn.split('.').pop() || fqn)
}

/** A default for any other key: its last dotted segment (an entity prefix dropped). */
export function readableDefault(key: string): string {
  const last = key.split('.').pop() || key
  return /[_$]/.test(last) && /[a-z]/.test(last) ? readableEntityName(last) : readableName(last)
}
