/**
 * Which way a simulated outbound request of the platform leaves (config rules 9 and 10). No request really
 * leaves the emulator; each is recorded with its route for `GET /_emulator/sessions/{id}/egress`.
 * - Platform-internal endpoints go direct, even past a `route_all` proxy.
 * - An `mcp_oauth` credential's OAuth steps go through its `egress_environment_id` environment's proxy,
 *   whatever the session runs on; without that binding they follow the session's route.
 * - Any other host goes through the session environment's proxy when it has one, else direct.
 */

export type EgressPurpose = 'model_request' | 'mcp_call' | OAuthStep;
/** The OAuth steps config rule 10 names: discovery, dynamic client registration, token exchange, (background) refresh. */
export type OAuthStep = 'oauth_discovery' | 'oauth_client_registration' | 'oauth_token_exchange' | 'oauth_refresh';
const OAUTH_STEPS: readonly EgressPurpose[] = ['oauth_discovery', 'oauth_client_registration', 'oauth_token_exchange', 'oauth_refresh'];

/** `environment_id` names the environment whose proxy carries the request; it is there only for `proxy`. */
export interface EgressRoute {
  host: string;
  purpose: EgressPurpose;
  route: 'proxy' | 'direct';
  environment_id?: string;
}

/** An environment as far as egress goes: a proxy of either mode, or none (self-hosted, or cloud without one). */
export interface EgressEnvironment {
  id: string;
  config?: { type?: string; proxy?: { mode: string } };
}

export interface EgressVia {
  /** The session's environment; none when the session has none. */
  session?: EgressEnvironment;
  /** For OAuth steps: the credential's bound egress environment; none when it has no binding. */
  oauthEgress?: EgressEnvironment;
}

/** The model API. */
export const MODEL_API_HOST = 'model.platform.internal';
// Assumption: the spec names no platform-internal hosts; the emulator's are its model API, its own API and its file store.
export const PLATFORM_INTERNAL_HOSTS: readonly string[] = [MODEL_API_HOST, 'api.platform.internal', 'files.platform.internal'];

/** The route of one outbound request to `host`. */
export function routeOf(host: string, purpose: EgressPurpose, via: EgressVia): EgressRoute {
  // Platform-internal endpoints bypass the proxy, even under `route_all`.
  if (PLATFORM_INTERNAL_HOSTS.includes(host)) return { host, purpose, route: 'direct' };
  const env = OAUTH_STEPS.includes(purpose) && via.oauthEgress ? via.oauthEgress : via.session;
  // Under `limited` the proxy, not the allow-list, decides reachability, so the request goes to it as under `route_all`.
  // Assumption: a bound egress environment without a proxy (or no longer there) means its OAuth steps go direct.
  return env?.config?.proxy ? { host, purpose, route: 'proxy', environment_id: env.id } : { host, purpose, route: 'direct' };
}

/** The host of an MCP server URL; the URL as given when it does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
