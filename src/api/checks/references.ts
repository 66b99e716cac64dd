import { UsageError } from '../../runtime/errors';

/**
 * Client-side checks of skill and plugin references in an agent or session body, for the rules a
 * client can decide alone (spec "Configuration rules" 3 and 4). Everything else (unknown IDs, unknown
 * versions, the scope of a plugin the reference does not name) is left to the service.
 */
export function checkReferences(body: Record<string, unknown>): void {
  checkSkillReferences(body.skills, 'skills');
  checkPluginReferences(body.plugins, 'plugins');
  const overrides = body.agent_overrides;
  if (overrides && typeof overrides === 'object' && !Array.isArray(overrides)) {
    const o = overrides as Record<string, unknown>;
    checkSkillReferences(o.skills, 'agent_overrides.skills');
    checkPluginReferences(o.plugins, 'agent_overrides.plugins');
  }
}

type Ref = Record<string, unknown>;

const refs = (list: unknown): Array<[Ref, number]> =>
  Array.isArray(list) ? list.map((r, i) => [r, i] as [Ref, number]).filter(([r]) => r !== null && typeof r === 'object' && !Array.isArray(r)) : [];

/**
 * Rule 3: one `skill_id` referenced both as "latest" and as an exact version. An omitted
 * version is neither (it is frozen at write time), so it mixes with either.
 */
export function checkSkillReferences(list: unknown, param: string): void {
  const latest = new Map<string, number>();
  const exact = new Map<string, number>();
  for (const [ref, i] of refs(list)) {
    if (typeof ref.skill_id !== 'string' || ref.version === undefined || ref.version === null) continue;
    (ref.version === 'latest' ? latest : exact).set(ref.skill_id, i);
  }
  for (const [id, i] of latest) {
    const j = exact.get(id);
    if (j !== undefined) {
      throw new UsageError(`${param}[${Math.max(i, j)}].version: skill ${id} is referenced both as "latest" and as an exact version; use one of them`);
    }
  }
}

/**
 * Rule 4: an `official` plugin reference must omit `version` (any explicit value,
 * "latest" included, is rejected). Decided only when the reference itself says it is official.
 */
export function checkPluginReferences(list: unknown, param: string): void {
  for (const [ref, i] of refs(list)) {
    const official = ref.type === 'official' || ref.scope === 'official';
    if (official && 'version' in ref) {
      throw new UsageError(`${param}[${i}].version: an official plugin reference must omit version`);
    }
  }
}
