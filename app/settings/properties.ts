/**
 * The registry of `svc.*` properties: name (exactly as the spec writes it), type and default.
 * Each capability adds its properties here, one line each. Names with `<name>` are patterns
 * (e.g. one set of properties per OAuth client).
 */
import { validatePattern } from '../oauth/url_patterns.js'
import { parseSize } from '../files/size.js'
import { parseDuration } from '../oauth/secrets.js'
import { javaLocale } from './request_locale.js'
import { REPORT_PROPERTIES } from '../reports/properties.js'

export type PropertyType = 'string' | 'boolean' | 'int' | 'list'

export interface PropertyDefinition {
  name: string
  type: PropertyType
  default: string | number | boolean | string[]
  description: string
  /** Further checks of a coerced value: a problem message, or null when it is fine. */
  check?: (value: PropertyValue) => string | null
}

/**
 * URL pattern lists (catalogue RT10): every entry must be a plain Ant path pattern; an
 * anonymous pattern that opens everything (`/**`, `**`) is refused outright.
 */
function urlPatterns(anonymous: boolean) {
  return (value: PropertyValue) => {
    for (const pattern of value as string[]) {
      const problem = validatePattern(pattern)
      if (problem) return problem
      if (anonymous && (pattern === '/**' || pattern === '**')) {
        return `'${pattern}' would open every URL to anonymous callers; list the paths to open`
      }
    }
    return null
  }
}

export const PROPERTIES: PropertyDefinition[] = [
  {
    name: 'svc.rest.anonymous-url-patterns',
    type: 'list',
    default: [],
    description: 'URL patterns served to the anonymous user without a token',
    check: urlPatterns(true),
  },
  {
    name: 'svc.resource-server.anonymous-url-patterns',
    type: 'list',
    default: [],
    description: 'Newer-release name of svc.rest.anonymous-url-patterns; both are honoured',
    check: urlPatterns(true),
  },
  {
    name: 'svc.resource-server.authenticated-url-patterns',
    type: 'list',
    default: ['/rest/**'],
    description: 'Ant-style URL patterns that require a bearer token',
    check: urlPatterns(false),
  },
  {
    name: 'svc.rest.inline-enabled-file-extensions',
    type: 'list',
    default: ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'txt'],
    description: 'Downloads with these extensions may be served inline',
  },
  {
    name: 'svc.rest.max-bulk-size',
    type: 'int',
    default: 10000,
    description: 'Most entities one bulk create, update or delete may carry (more: 413)',
  },
  {
    name: 'svc.rest.max-upload-size',
    type: 'string',
    default: '20MB',
    description:
      'Largest file POST /rest/files accepts (bytes, or with KB/MB/GB); larger uploads are 413 and nothing is stored',
    check: (value) => (Number.isNaN(parseSize(value)) ? 'must be a size such as 20MB' : null),
  },
  {
    name: 'svc.core.default-file-storage',
    type: 'string',
    default: 'fs',
    description:
      'Storage of uploads without a storageName parameter (fs, or s3 when configured in config/drive.ts)',
    check: (value) =>
      /^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(String(value)) ? null : 'must be a storage name',
  },
  {
    name: 'svc.core.entitySerializationTokenRequired',
    type: 'boolean',
    default: false,
    description: 'Send and require __securityToken with entities',
  },
  {
    name: 'svc.core.available-locales',
    type: 'list',
    default: ['en'],
    description: 'Locales of the messages API',
    check: (value) => {
      // Java's form after normalization (`de-AT` reads as `de_AT`): LOCALE_CODE of app/i18n.
      const bad = (value as string[]).find(
        (l) => !/^[a-z]{2,3}(_([A-Z]{2}|[0-9]{3}))?$/.test(javaLocale(l))
      )
      return bad === undefined ? null : `'${bad}' is not a locale (write e.g. en, de, pt_BR)`
    },
  },
  {
    name: 'svc.rest.default-max-fetch-size',
    type: 'int',
    default: 10000,
    description: 'Largest page an entity list may return',
  },
  {
    name: 'svc.rest.services-config',
    type: 'string',
    default: '',
    description:
      'Services XML files exposing REST services (paths relative to the application root, separated by spaces)',
  },
  {
    name: 'svc.authserver.login-page-view-name',
    type: 'string',
    default: '',
    description: 'View that replaces the built-in login page',
  },
  {
    name: 'svc.authserver.authorization-code-time-to-live',
    type: 'string',
    default: '5m',
    description: 'Lifetime of authorization codes (single use)',
    check: (value) => {
      try {
        parseDuration(value as string)
        return null
      } catch {
        return 'must be a duration such as 30s, 5m, 1h or 7d'
      }
    },
  },
  {
    name: 'svc.server.base-url',
    type: 'string',
    default: '',
    description:
      'Public base URL (issuer, absolute links); empty: derived from the request (not for production behind proxies)',
  },
  {
    name: 'svc.authserver.client-authentication-attempts',
    type: 'int',
    default: 10,
    description:
      'Failed client authentications per client id and minute before the token endpoint answers 429',
  },
  {
    name: 'svc.cors.allowed-origins',
    type: 'list',
    default: [],
    description:
      'Origins (https://app.example.com) allowed to call the APIs from a browser; * for any (never with credentials)',
  },
  {
    name: 'svc.authserver.client.<name>.client-id',
    type: 'string',
    default: '',
    description: 'Client id of a configured OAuth client',
  },
  {
    name: 'svc.authserver.client.<name>.client-secret',
    type: 'string',
    default: '',
    description: 'Secret of a configured OAuth client',
  },
  {
    name: 'svc.authserver.client.<name>.authentication-methods',
    type: 'list',
    default: ['client_secret_basic'],
    description:
      'Client authentication methods of a configured OAuth client (client_secret_basic, client_secret_post, none)',
  },
  {
    name: 'svc.authserver.client.<name>.access-token-format',
    type: 'string',
    default: 'reference',
    description: 'Access token format of a configured OAuth client (reference, self-contained)',
  },
  {
    name: 'svc.authserver.client.<name>.resource-roles',
    type: 'list',
    default: [],
    description: 'Resource roles of a configured OAuth client',
  },
  {
    name: 'svc.authserver.client.<name>.row-level-roles',
    type: 'list',
    default: [],
    description: 'Row-level roles of a configured OAuth client',
  },
  {
    name: 'svc.authserver.client.<name>.grant-types',
    type: 'list',
    default: ['client_credentials'],
    description: 'Grant types of a configured OAuth client',
  },
  {
    name: 'svc.authserver.client.<name>.redirect-uris',
    type: 'list',
    default: [],
    description: 'Redirect URIs of a configured OAuth client',
  },
  {
    name: 'svc.authserver.client.<name>.access-token-time-to-live',
    type: 'string',
    default: '5m',
    description: 'Access token lifetime of a configured OAuth client',
  },
  {
    name: 'svc.authserver.client.<name>.refresh-token-time-to-live',
    type: 'string',
    default: '24h',
    description: 'Refresh token lifetime of a configured OAuth client',
  },
  {
    name: 'svc.authserver.client.<name>.require-proof-key',
    type: 'boolean',
    default: true,
    description: 'PKCE requirement of a configured OAuth client',
  },
  ...REPORT_PROPERTIES,
]

function patternOf(definition: PropertyDefinition): RegExp {
  const escaped = definition.name
    .replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')
    .replace('<name>', '([A-Za-z0-9_-]+)')
  return new RegExp(`^${escaped}$`)
}

const EXACT = new Map(PROPERTIES.filter((p) => !p.name.includes('<')).map((p) => [p.name, p]))
const PATTERNS = PROPERTIES.filter((p) => p.name.includes('<')).map((p) => ({
  p,
  re: patternOf(p),
}))

/** The per-client secret properties: never stored in clear, never shown, masked in audits. */
export const CLIENT_SECRET_PROPERTY = /^svc\.authserver\.client\.[^.]+\.client-secret$/

export function findProperty(name: string): PropertyDefinition | undefined {
  return EXACT.get(name) ?? PATTERNS.find(({ re }) => re.test(name))?.p
}

/** `svc.rest.anonymous-url-patterns` -> `SVC_REST_ANONYMOUS_URL_PATTERNS`. */
export function envNameOf(name: string): string {
  return name.replace(/[.-]/g, '_').toUpperCase()
}

/** Property names that an environment variable can stand for (patterns included). */
export function propertyNamesForEnv(envName: string): string[] {
  const out: string[] = []
  for (const p of EXACT.values()) if (envNameOf(p.name) === envName) out.push(p.name)
  for (const { p } of PATTERNS) {
    const [head, tail] = envNameOf(p.name).split('<NAME>')
    if (
      envName.startsWith(head) &&
      envName.endsWith(tail) &&
      envName.length > head.length + tail.length
    ) {
      const client = envName.slice(head.length, envName.length - tail.length).toLowerCase()
      out.push(p.name.replace('<name>', client))
    }
  }
  return out
}

export type PropertyValue = string | number | boolean | string[]

/** Converts a raw value (string from a file or env, or JSON from the database) to its type. */
export function coerce(definition: PropertyDefinition, raw: unknown): PropertyValue {
  const value = coerceType(definition, raw)
  const problem = definition.check?.(value)
  if (problem) throw new TypeError(`${definition.name}: ${problem}`)
  return value
}

function coerceType(definition: PropertyDefinition, raw: unknown): PropertyValue {
  switch (definition.type) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw
      if (raw === 'true' || raw === 'false') return raw === 'true'
      throw new TypeError(`${definition.name} must be true or false`)
    case 'int': {
      // Number() alone would turn '', true and [7] into integers (0, 1, 7): accept only numbers
      // and strings that spell an integer.
      const n =
        typeof raw === 'number'
          ? raw
          : typeof raw === 'string' && /^\s*[+-]?\d+\s*$/.test(raw)
            ? Number(raw)
            : Number.NaN
      if (!Number.isSafeInteger(n)) throw new TypeError(`${definition.name} must be an integer`)
      return n
    }
    case 'list':
      if (Array.isArray(raw) && raw.every((x) => typeof x === 'string'))
        return raw.map((x) => x.trim()).filter(Boolean)
      if (typeof raw === 'string')
        return raw
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      throw new TypeError(
        `${definition.name} must be a comma-separated string or a list of strings`
      )
    case 'string':
      if (typeof raw === 'string') return raw
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw)
      throw new TypeError(`${definition.name} must be a string`)
  }
}
