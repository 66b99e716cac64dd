import { ToolLoading } from './tool-loading';

/**
 * What the platform does around the model that no event shows, kept per session for the loopback admin
 * paths `GET /_emulator/sessions/{id}/model-requests` and `GET /_emulator/sessions/{id}/mcp`.
 */
export class SessionPlatform {
  readonly tools = new ToolLoading();
  readonly mcp = new McpConnections();
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
