/**
 * Which `agent.tool_use` calls a self-hosted worker answers (docs/service.md: agents' built-in names; environments
 * and work). The platform runs these built-ins and MCP tools itself; every other name — the sandbox tools
 * bash, read, write, edit, glob, grep, and any unknown name — is the worker's, which answers an unknown one
 * with an error result.
 */
export const SERVICE_SIDE_TOOL_NAMES: readonly string[] = ['web_fetch', 'web_search', 'search_image_by_text', 'search_image_by_image'];

/** Whether a worker on a self-hosted environment answers this call. */
export function runsOnWorker(call: { name?: unknown; mcp_server_name?: unknown }): boolean {
  return call.mcp_server_name === undefined && !SERVICE_SIDE_TOOL_NAMES.includes(String(call.name));
}
