/**
 * An incoming X-Request-Id (a load balancer's) is kept only when it cannot forge or break a log
 * line or a header: letters, digits and `._:-`, at most 128 characters. Anything else is
 * replaced by a fresh UUID (request_context_middleware.ts).
 */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/
