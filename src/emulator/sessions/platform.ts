import { hostOf, MODEL_API_HOST, routeOf, type EgressEnvironment, type EgressPurpose, type EgressRoute, type OAuthStep } from './egress';
import { ToolLoading } from './tool-loading';

/**
 * What the platform does around the model that no event shows, kept per session for the loopback admin
 * paths `GET /_emulator/sessions/{id}/model-requests`, `…/mcp` and `…/egress`.
 */
export class SessionPlatform {
  readonly tools = new ToolLoading();
  readonly mcp = new McpConnections();
  readonly egress: OutboundRequests;

  constructor(egress: EgressLookup = NO_LOOKUP) {
    this.egress = new OutboundRequests(egress);
  }
}

/** One step of the platform's MCP traffic, oldest first; `event_id` is the `agent.tool_use` or `session.error` it belongs to. */
export interface McpLogEntry {
  server: string;
  action: 'call' | 'credential_refresh' | 'retry' | 'session_error';
  outcome: 'ok' | 'rejected' | 'failed' | 'connection_lost' | 'reported';
  tool?: string;
  error_type?: string;
  event_id?: string;
}

/** The session's MCP servers as the platform sees them: which became unavailable, and what was tried. */
export class McpConnections {
  readonly log: McpLogEntry[] = [];
  private readonly unavailable = new Set<string>();

  available(server: string): boolean {
    return !this.unavailable.has(server);
  }

  /** Assumption: the emulator never reconnects, so a server's tools stay unavailable for the rest of the session. */
  drop(server: string): void {
    this.unavailable.add(server);
  }

  record(entry: McpLogEntry): void {
    this.log.push(entry);
  }
}

/** What a session's routes depend on, read at each request: environments and credentials may change meanwhile. */
export interface EgressLookup {
  /** The session's environment. */
  environment(): EgressEnvironment | undefined;
  environmentById(id: string): EgressEnvironment | undefined;
  /** The URL of the effective agent's MCP server of this name. */
  mcpServerUrl(server: string): string | undefined;
  /** The `mcp_oauth` credential that authenticates this MCP server, if any. */
  oauthCredential(server: string): { id: string; egress_environment_id: string | null } | undefined;
}

const NO_LOOKUP: EgressLookup = {
  environment: () => undefined,
  environmentById: () => undefined,
  mcpServerUrl: () => undefined,
  oauthCredential: () => undefined,
};

/** One simulated outbound request, oldest first; `event_id` is the `agent.model_started` or `agent.tool_use` it belongs to. */
export type EgressEntry = EgressRoute & { server?: string; credential_id?: string; event_id?: string };

/** The session's simulated outbound requests, each routed by egress.ts. */
export class OutboundRequests {
  readonly log: EgressEntry[] = [];
  /** Credentials that got their tokens in this session. */
  private readonly authorized = new Set<string>();

  constructor(private readonly lookup: EgressLookup) {}

  modelRequest(eventId: string): void {
    this.record(MODEL_API_HOST, 'model_request', { event_id: eventId });
  }

  /**
   * A call to an MCP server. Assumption: the emulator keeps no OAuth tokens across sessions, so a session's first
   * call to a server with an `mcp_oauth` credential is preceded by discovery, client registration and a token exchange.
   */
  mcpCall(server: string, eventId: string): void {
    const credential = this.lookup.oauthCredential(server);
    if (credential && !this.authorized.has(credential.id)) {
      this.authorized.add(credential.id);
      for (const step of ['oauth_discovery', 'oauth_client_registration', 'oauth_token_exchange'] as const) this.oauth(step, server, eventId);
    }
    this.record(this.hostOf(server), 'mcp_call', { server, event_id: eventId });
  }

  /** A credential refresh. Assumption: like the failure that causes it (mcp.ts), it happens whatever credential the session has. */
  credentialRefresh(server: string, eventId: string): void {
    this.oauth('oauth_refresh', server, eventId);
  }

  /** Assumption: a server's OAuth endpoints (metadata, registration, token) are on the MCP server's own host. */
  private oauth(step: OAuthStep, server: string, eventId: string): void {
    const credential = this.lookup.oauthCredential(server);
    const bound = credential?.egress_environment_id;
    const oauthEgress = bound ? (this.lookup.environmentById(bound) ?? { id: bound }) : undefined;
    this.record(this.hostOf(server), step, { server, event_id: eventId, ...(credential ? { credential_id: credential.id } : {}) }, oauthEgress);
  }

  private hostOf(server: string): string {
    const url = this.lookup.mcpServerUrl(server);
    return url === undefined ? server : hostOf(url);
  }

  private record(host: string, purpose: EgressPurpose, about: Omit<EgressEntry, keyof EgressRoute>, oauthEgress?: EgressEnvironment): void {
    this.log.push({ ...routeOf(host, purpose, { session: this.lookup.environment(), oauthEgress }), ...about });
  }
}
