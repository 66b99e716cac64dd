/** The only API version the service speaks (spec: Versioning). */
export const API_VERSION = '2026-09-01-beta';
export const VERSION_HEADER = 'svc-api-version';
export const REQUEST_ID_HEADER = 'svc-request-id';
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Paths that may omit the version header and then use the compatibility format. */
export const isFilesPath = (path: string): boolean => path === '/v1/files' || path.startsWith('/v1/files/');
