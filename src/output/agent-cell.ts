/**
 * An agent as a table row shows it: `reviewer (agent_1@3)` when its name is known, else the bare ID (with the
 * version the row froze, if any), so a row whose agent cannot be read still says which agent it is.
 */
export function agentCell(id: unknown, name: string | undefined, version?: unknown): unknown {
  if (id === undefined || id === null || id === '') return id;
  const ref = version === undefined || version === null ? String(id) : `${String(id)}@${String(version)}`;
  return name ? `${name} (${ref})` : ref;
}
