import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Obj } from '../api/resources';
import { skills } from '../api/skills';
import { multipartBody, uploadSource } from '../api/upload';
import { LIMITS } from '../wire/limits';
import { UsageError } from '../runtime/errors';
import { formatBytes } from '../output/progress';
import { SET_LABEL } from './project';
import { packageFolder, type SkillPackage } from './skill-package';
import type { Entry, PlanCtx } from './types';
import { refKey } from './refs';
import type { Doc } from './types';

/**
 * A Skill document points at a folder: apply packages it and uploads the package as the skill (version 1),
 * later as a new version only when the package's SHA-256 differs from the latest version's.
 */
export async function planSkill(pc: PlanCtx, d: Doc, live: Obj | undefined, entry: Entry): Promise<Entry> {
  const pkg = packageFolder(resolve(d.dir, String(d.body.path)), `${d.where}: path ${String(d.body.path)}`);
  if (pkg.zip.length > LIMITS.skillPackage)
    throw new UsageError(`${d.where}: the package is ${formatBytes(pkg.zip.length)}; a skill package is at most ${formatBytes(LIMITS.skillPackage)}`);
  const shownPackage = { files: pkg.files, sha256: pkg.sha256 };
  if (!live) {
    entry.action = 'created';
    entry.diff = [
      { op: 'add', path: 'name', new: d.name },
      ...(d.body.description !== undefined ? [{ op: 'add' as const, path: 'description', new: d.body.description }] : []),
      { op: 'add', path: 'package', new: shownPackage },
    ];
    entry.steps.push({
      label: `+ Skill ${d.name}`,
      run: async () => {
        // Emulator assumption (as `svc skills create`): text fields name, description, metadata as JSON.
        const fields = {
          name: d.name,
          description: d.body.description as string | undefined,
          metadata: pc.o.set !== undefined ? JSON.stringify({ ...(d.body.metadata ?? {}), [SET_LABEL]: pc.o.set }) : undefined,
        };
        const created = await send(pkg, d.name, (body, key) => skills.upload(pc.c, body(fields), key), pc.key());
        entry.id = created.id ?? null;
        pc.ids.set(refKey(d), created.id!);
      },
    });
    return entry;
  }
  if (d.body.description !== undefined && d.body.description !== live.description) {
    entry.notes.push(`description differs from the skill's ${JSON.stringify(live.description)}: a skill has no update, so it stays`);
  }
  const latest = await latestVersion(pc, live.id!);
  // Assumption (docs/service.md does not name it): a version carries the package's SHA-256 as `sha256` (or `content_sha256`).
  const held = latest ? (latest.sha256 ?? latest.content_sha256) : undefined;
  if (held === pkg.sha256) return entry;
  entry.action = 'updated';
  entry.diff = [{ op: 'change', path: 'package.sha256', old: held, new: pkg.sha256 }];
  entry.notes.push(`publishes version ${Number(live.latest_version ?? latest?.version ?? 0) + 1} (${pkg.files} files)`);
  entry.steps.push({
    label: `~ Skill ${d.name} (new version)`,
    run: async () => void (await send(pkg, d.name, (body, key) => skills.uploadVersion(pc.c, live.id!, body({}), key), pc.key())),
  });
  return entry;
}

async function latestVersion(pc: PlanCtx, id: string): Promise<Obj | undefined> {
  for await (const v of skills.versions(pc.c, id, { limit: 1 })) return v;
  return undefined;
}

type BodyOf = (fields: Record<string, string | undefined>) => ReturnType<typeof multipartBody>;

/** Uploads the package from a temporary file (the multipart body streams from disk), removed afterwards. */
async function send<T>(pkg: SkillPackage, name: string, upload: (body: BodyOf, key: string) => Promise<T>, key: string): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-skill-'));
  try {
    const file = join(dir, `${name.replace(/[^\w.-]+/g, '_')}.zip`);
    writeFileSync(file, pkg.zip);
    const src = uploadSource(file, pkg.zip.length);
    return await upload((fields) => multipartBody(fields, src, key), key);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
