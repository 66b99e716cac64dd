import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../api/client';
import { agents } from '../api/resources';
import { sessions } from '../api/sessions';
import { skills } from '../api/skills';
import { atomicWrite } from '../fs/atomic-write';
import { describe } from './lease';
import type { Fields, WorkerLog } from './log';

/** Where packages go, under the workdir: `.skills/SKILL_ID/VERSION/package`. */
export const SKILLS_DIR = '.skills';

interface SkillRef {
  skill_id: string;
  version?: string | number;
}

/**
 * Assumption: the spec does not say how a self-hosted sandbox sees the skills of a session's agent. The worker
 * makes their packages available under the workdir before the first tool call: the session's `skills`
 * override when it has one (`null` = none), else the frozen agent version's `skills`; `"latest"` resolves to
 * the skill's latest version at each claim. Reading agents and skill content takes the API key (a session work
 * token reaches only its session), so without one nothing is fetched. Versions are immutable: a
 * package already in place is kept, and each lands with an atomic rename, so rows sharing a workdir never see
 * half a file. With `--on-work` the folder is CMD's working directory: mount `.skills/` into a container.
 */
export async function provideSkills(o: {
  api: ApiClient;
  session: ApiClient;
  sessionId: string;
  workdir: string;
  log: WorkerLog;
  fields: Fields;
}): Promise<void> {
  let refs: SkillRef[];
  try {
    refs = await skillRefs(o.api, o.session, o.sessionId);
  } catch (e) {
    return o.log.warn("skills not made available: cannot read the session's skills", { ...o.fields, error: describe(e) });
  }
  for (const ref of refs) {
    try {
      const version =
        ref.version === undefined || ref.version === 'latest' ? String((await skills.get(o.api, ref.skill_id)).latest_version ?? '1') : String(ref.version);
      const dir = join(o.workdir, SKILLS_DIR, safe(ref.skill_id), safe(version));
      if (await exists(join(dir, 'package'))) continue;
      await mkdir(dir, { recursive: true });
      const res = await skills.content(o.api, ref.skill_id, version);
      // Not private: an --on-work CMD may read it as another user or from a container.
      await atomicWrite(join(dir, 'package'), res.body, { mode: 0o644 });
      o.log.info('skill package ready', { ...o.fields, skill: ref.skill_id, version, path: join(SKILLS_DIR, safe(ref.skill_id), safe(version), 'package') });
    } catch (e) {
      o.log.warn('skill package not available', { ...o.fields, skill: ref.skill_id, error: describe(e) });
    }
  }
}

async function skillRefs(api: ApiClient, session: ApiClient, sessionId: string): Promise<SkillRef[]> {
  const s = await sessions.get(session, sessionId);
  const override = (s?.agent_overrides as { skills?: SkillRef[] | null } | undefined)?.skills;
  if (override === null) return [];
  if (Array.isArray(override)) return override;
  const agent = await agents.get(api, String(s?.agent_id), s?.agent_version === undefined ? undefined : { version: String(s.agent_version) });
  return Array.isArray(agent?.skills) ? (agent.skills as SkillRef[]) : [];
}

/** One path segment from an opaque ID: never `.`/`..`, never a separator. */
const safe = (id: string): string => (/^[A-Za-z0-9_.-]+$/.test(id) && id !== '.' && id !== '..' ? id : encodeURIComponent(id).replace(/\./g, '%2E'));

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}
