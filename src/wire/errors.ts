/** HTTP error types of the spec's Errors table, with the status each is sent with. */
export const ERROR_STATUS = {
  invalid_parameter_error: 400,
  invalid_request_error: 400,
  failed_precondition_error: 400,
  authentication_error: 401,
  permission_denied_error: 403,
  resource_not_found_error: 404,
  conflict_error: 409,
  rate_limit_reached_error: 429,
  exceeded_current_quota_error: 429,
  server_error: 500,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

export interface ErrorObject {
  type: string;
  message: string;
  param?: string;
  request_id?: string;
}

export interface ErrorBody {
  error: ErrorObject;
}

/** The spec's Recovery column, shown as a hint. */
export const ERROR_RECOVERY: Record<string, string> = {
  invalid_parameter_error: 'Fix the field named in param.',
  invalid_request_error: 'Fix the request format, method, version or size.',
  failed_precondition_error: "Check the operation's state requirements.",
  authentication_error: 'Renew or replace the credential (svc auth login).',
  permission_denied_error: 'Check permissions and credential scope.',
  resource_not_found_error: 'Check the ID and its visibility.',
  conflict_error: 'Resolve the name, version or idempotency conflict.',
  rate_limit_reached_error: 'Wait and retry (Retry-After).',
  exceeded_current_quota_error: 'Restore quota or budget.',
  server_error: 'Note the request ID; confirm the outcome of writes before retrying.',
};

/** Session execution error types (`session.error` data.error_type) and their recovery. */
export const SESSION_ERROR_RECOVERY: Record<string, string> = {
  internal_error: 'Report with the request ID.',
  model_error: 'Act on the message or retry later.',
  model_unavailable: 'Choose an available model or create a new session.',
  rate_limited: 'Wait and retry.',
  engine_overloaded: 'Retry later.',
  quota_exceeded: 'Restore model quota or balance and continue.',
  context_length_exceeded: 'Shorten input or create a new session.',
  invalid_request: 'Fix the model request per the message.',
  timeout: 'Check the session state, then retry.',
  max_steps: 'Send new input to continue in a new turn.',
  mcp_connection_failed: 'Check connectivity of the affected MCP server.',
  mcp_authentication_failed: 'Renew or reconnect the MCP credential.',
};

export const SESSION_ERROR_TYPES = Object.keys(SESSION_ERROR_RECOVERY);

/**
 * `stop_reason` types the real service may answer (docs/service.md "Shapes a real service may answer") for a turn that
 * stopped with its work not done: what happened, and the recovery.
 */
export const UNFINISHED_STOPS: Record<string, { what: string; recovery: string }> = {
  retries_exhausted: { what: 'the service gave up after retrying', recovery: "Check the turn's last events, then send the message again." },
  budget_reached: { what: 'it reached its budget', recovery: 'Raise the budget or restore quota, then send a new message.' },
  refusal: { what: 'the model refused', recovery: 'The model declined the request: rephrase it in a new message.' },
};
