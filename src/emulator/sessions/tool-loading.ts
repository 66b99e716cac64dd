/**
 * Which tool definitions a model request carries (config rule 6). No model runs, so each
 * request is recorded with what the model "received", for `GET /_emulator/sessions/{id}/model-requests`:
 * a definition with `input_schema` was sent with its schema, one without it by name only (on demand).
 */

export interface ToolDefinition {
  name: string;
  mcp_server_name?: string;
  input_schema?: Record<string, unknown>;
}

/** One model request: the `agent.model_started` event that marks it, and its tools. */
export interface ModelRequest {
  event_id: string;
  model: string;
  tools: ToolDefinition[];
}

/** What the tool definitions are computed from: the effective agent, and the MCP servers still available. */
export interface AgentTools {
  model: string;
  tools: readonly unknown[];
  mcpServers: readonly string[];
}

type LoadMode = 'eager' | 'on_demand';
interface ToolConfig {
  name?: unknown;
  enabled?: unknown;
  load_mode?: unknown;
}
interface ToolEntry extends ToolConfig {
  type?: unknown;
  mcp_server_name?: unknown;
  default_config?: ToolConfig;
  configs?: ToolConfig[];
  input_schema?: Record<string, unknown>;
}

export const BUILT_IN_TOOLSET = 'default_toolset_20260901';

const object = (props: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])),
  required: props.slice(0, 1),
});
// docs/service.md: Agents (the built-in names). Assumption: the spec shows no built-in schemas; these are the emulator's own.
const BUILT_IN_SCHEMAS: Record<string, Record<string, unknown>> = {
  bash: object(['command']),
  read: object(['path']),
  write: object(['path', 'content']),
  edit: object(['path', 'old_text', 'new_text']),
  glob: object(['pattern']),
  grep: object(['pattern', 'path']),
  web_fetch: object(['url']),
  web_search: object(['query']),
  search_image_by_text: object(['query']),
  search_image_by_image: object(['file_id']),
};
/** The built-ins that follow the MCP default (on demand); the others are eager. */
const ON_DEMAND_BUILT_INS = ['search_image_by_text', 'search_image_by_image'];
/** Assumption: the emulator has no MCP server to ask, so every MCP tool is described by an open object schema. */
const MCP_TOOL_SCHEMA = { type: 'object' };

/** Assumption: the spec names no model without on-demand support; in the emulator, a model ID ending in `-eager` is one. */
export const supportsOnDemand = (model: string): boolean => !model.endsWith('-eager');

export const toolKey = (name: string, mcpServer?: string): string => JSON.stringify([mcpServer ?? null, name]);

/** A tool's own `load_mode`, else its toolset's, else the default. Assumption: any value but `eager` (the only one the spec names) means on demand. */
function loadMode(cfg: ToolConfig | undefined, set: ToolEntry, fallback: LoadMode): LoadMode {
  const v = cfg?.load_mode ?? set.default_config?.load_mode;
  return v === undefined ? fallback : v === 'eager' ? 'eager' : 'on_demand';
}

const enabled = (cfg: ToolConfig | undefined, set: ToolEntry): boolean => (cfg?.enabled ?? set.default_config?.enabled ?? true) !== false;

/** The tools of a model request; `loaded` says which on-demand tools already had their schema loaded in the session. */
export function toolDefinitions(agent: AgentTools, loaded: (key: string) => boolean): ToolDefinition[] {
  const entries = agent.tools.filter((t): t is ToolEntry => typeof t === 'object' && t !== null);
  const candidates: Array<ToolDefinition & { schema: Record<string, unknown>; mode: LoadMode }> = [];
  // A repeated built-in toolset uses only its first declaration, without merging.
  const builtIn = entries.find((t) => t.type === BUILT_IN_TOOLSET);
  for (const [name, schema] of builtIn ? Object.entries(BUILT_IN_SCHEMAS) : []) {
    const cfg = builtIn!.configs?.find((c) => c.name === name);
    if (enabled(cfg, builtIn!)) candidates.push({ name, schema, mode: loadMode(cfg, builtIn!, ON_DEMAND_BUILT_INS.includes(name) ? 'on_demand' : 'eager') });
  }
  // Assumption: an MCP server's tools are those its first `mcp_toolset` names in `configs`; a server without one contributes none.
  for (const server of agent.mcpServers) {
    const set = entries.find((t) => t.type === 'mcp_toolset' && t.mcp_server_name === server);
    const names = new Set<string>();
    for (const cfg of set?.configs ?? []) {
      if (typeof cfg.name !== 'string' || names.has(cfg.name) || !enabled(cfg, set!)) continue;
      names.add(cfg.name);
      candidates.push({ name: cfg.name, mcp_server_name: server, schema: MCP_TOOL_SCHEMA, mode: loadMode(cfg, set!, 'on_demand') });
    }
  }
  // Assumption: custom tools take no `load_mode` and always go with their schema.
  for (const t of entries)
    if (t.type === 'custom' && typeof t.name === 'string') candidates.push({ name: t.name, schema: t.input_schema ?? {}, mode: 'eager' });
  const eagerOnly = !supportsOnDemand(agent.model);
  return candidates.map(({ schema, mode, ...def }) =>
    eagerOnly || mode === 'eager' || loaded(toolKey(def.name, def.mcp_server_name)) ? { ...def, input_schema: schema } : def,
  );
}

/** A session's model requests, and the on-demand tools whose schemas it has loaded (they stay loaded). */
export class ToolLoading {
  readonly requests: ModelRequest[] = [];
  private readonly loaded = new Set<string>();

  definitions(agent: AgentTools): ToolDefinition[] {
    return toolDefinitions(agent, (k) => this.loaded.has(k));
  }

  load(name: string, mcpServer?: string): void {
    this.loaded.add(toolKey(name, mcpServer));
  }
}
