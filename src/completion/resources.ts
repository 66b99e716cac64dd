/** Groups whose IDs the service lists at `/v1/<group>` (API-NOTES "Common shapes"). */
const LISTED = new Set(['agents', 'sessions', 'environments', 'vaults', 'skills', 'plugins', 'memory-stores', 'dreams', 'triggers', 'artifacts', 'files']);

/** Argument and option-placeholder names that name another group's ID (`<session>`, `--agent <agent>`, `ENV`). */
const GROUP_BY_NAME: Record<string, string> = {
  agent: 'agents',
  session: 'sessions',
  environment: 'environments',
  env: 'environments',
  vault: 'vaults',
  skill: 'skills',
  plugin: 'plugins',
  'memory-store': 'memory-stores',
  store: 'memory-stores',
  dream: 'dreams',
  trigger: 'triggers',
  artifact: 'artifacts',
  file: 'files',
};

/** The list whose IDs complete this argument: `id` is the group's own resource, other names are looked up. */
export function listPathFor(group: string, argName: string): string | undefined {
  const name = argName.toLowerCase().replace(/_/g, '-').replace(/-id$/, '');
  const target = name === 'id' ? group : (GROUP_BY_NAME[name] ?? name);
  return LISTED.has(target) ? `/v1/${target}` : undefined;
}
