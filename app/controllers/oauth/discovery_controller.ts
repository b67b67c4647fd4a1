import type { HttpContext } from '@adonisjs/core/http'
import { issuerOf } from '#oauth/server'
import { publicKeys } from '#oauth/keys'

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post']

export default class DiscoveryController {
  /** GET /.well-known/oauth-authorization-server (RFC 8414). */
  metadata(ctx: HttpContext) {
    const issuer = issuerOf(ctx)
    return {
      issuer,
      authorization_endpoint: `${issuer}/oauth2/authorize`,
      token_endpoint: `${issuer}/oauth2/token`,
      token_endpoint_auth_methods_supported: [...AUTH_METHODS, 'none'],
      jwks_uri: `${issuer}/oauth2/jwks`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      revocation_endpoint: `${issuer}/oauth2/revoke`,
      revocation_endpoint_auth_methods_supported: AUTH_METHODS,
      introspection_endpoint: `${issuer}/oauth2/introspect`,
      introspection_endpoint_auth_methods_supported: AUTH_METHODS,
      code_challenge_methods_supported: ['S256'],
    }
  }

  /** GET /oauth2/jwks: public keys of self-contained access tokens. */
  async jwks() {
    return publicKeys()
  }
}
