import { LIMITS, PLUGIN_CATEGORIES } from '../../wire/limits';
import { fail, invalidParam } from '../errors';
import { acceptUpload, removeBlob, sendContent, type Form } from '../multipart';
import type { EmuRequest } from '../router';
import type { Emulator } from '../server';
import { listReply, nowIso, publicView, type Rec } from '../store';
import { listNewest } from '../listing';
import { queryEnum } from '../validate';

/** One immutable uploaded package version; `_path` is its blob on disk. */
export type PackageVersion = { version: string | number; filename: string; size_bytes: number; sha256: string; created_at: string; _path: string };

type Skill = Rec & {
  name: string;
  description: string;
  categories?: string[];
  metadata: Record<string, string>;
  latest_version: number;
  archived_at: string | null;
  _versions: PackageVersion[];
};

export function packageVersion(form: Form, version: string | number): PackageVersion {
  const file = form.claim();
  return { version, filename: file.filename, size_bytes: file.size, sha256: file.sha256, created_at: nowIso(), _path: file.path };
}

/** Streams a stored package version: plugins as application/zip, skills as uploaded bytes. */
export function downloadVersion(r: EmuRequest, v: PackageVersion, contentType: string) {
  return sendContent(r, { path: v._path, size: v.size_bytes }, contentType, v.filename);
}

/**
 * Assumption (docs/service.md common shapes: `metadata` is a string→string map; the form fields of an upload are not
 * shown): the optional `metadata` form field is that map as JSON text.
 */
export function formMetadata(form: Form): Record<string, string> {
  const raw = form.fields.metadata;
  if (raw === undefined || raw.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return invalidParam('body.metadata', 'metadata must be a JSON object of strings');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return invalidParam('body.metadata', 'metadata must be a JSON object of strings');
  for (const [k, x] of Object.entries(v)) if (typeof x !== 'string') invalidParam(`body.metadata.${k}`, 'expected string');
  return v as Record<string, string>;
}

/** The optional `categories` form field: comma-separated values of the fixed vocabulary. */
export function formCategories(form: Form): { categories?: string[] } {
  const raw = form.fields.categories;
  if (raw === undefined || raw.trim() === '') return {};
  const categories = raw.split(',').map((c) => c.trim());
  categories.forEach((c, i) => {
    if (!(PLUGIN_CATEGORIES as readonly string[]).includes(c)) invalidParam(`body.categories[${i}]`, `category must be one of ${PLUGIN_CATEGORIES.join(', ')}`);
  });
  return { categories };
}

const skillsOf = (emu: Emulator) => emu.collection<Skill>('skills', 'skill', 'skill');

function skillVersion(s: Skill, raw: string): PackageVersion {
  if (!/^[1-9]\d*$/.test(raw)) invalidParam('path.version', 'version must be a positive integer');
  return s._versions.find((v) => v.version === Number(raw)) ?? fail('resource_not_found_error', `skill ${s.id} has no version ${raw}`);
}

export function registerSkills(emu: Emulator): void {
  const skills = skillsOf(emu);
  emu.onClose(() => skills.values().forEach((s) => s._versions.forEach((v) => removeBlob(v._path))));

  emu.router.post(
    '/v1/skills',
    (r) =>
      acceptUpload(emu, r, LIMITS.skillPackage, (form) => {
        const categories = formCategories(form);
        const version = packageVersion(form, 1);
        const name = form.fields.name ?? version.filename.replace(/\.[^.]*$/, '');
        const s = skills.insert({
          name,
          description: form.fields.description ?? '',
          ...categories,
          metadata: formMetadata(form),
          latest_version: 1,
          archived_at: null,
          _versions: [version],
        });
        return { status: 201, body: publicView(s) };
      }),
    { body: 'raw' },
  );

  emu.router.post(
    '/v1/skills/:id/versions',
    (r) =>
      acceptUpload(emu, r, LIMITS.skillPackage, (form) => {
        const s = skills.must(r.params.id);
        if (s.archived_at) fail('failed_precondition_error', 'the skill is archived');
        const version = packageVersion(form, s.latest_version + 1);
        s._versions.push(version);
        skills.touch(s, { latest_version: s.latest_version + 1 } as Partial<Skill>);
        return { status: 201, body: { skill_id: s.id, ...publicView(version) } };
      }),
    { body: 'raw' },
  );

  emu.router.get('/v1/skills', (r) => {
    const category = queryEnum(r.query, 'category', PLUGIN_CATEGORIES);
    return listNewest(skills, r.query, { keep: (s) => !category || s.categories?.includes(category) === true });
  });

  emu.router.get('/v1/skills/:id', (r) => ({ status: 200, body: publicView(skills.must(r.params.id)) }));

  emu.router.get('/v1/skills/:id/versions', (r) => {
    const s = skills.must(r.params.id);
    return listReply(
      [...s._versions].reverse(),
      r.query,
      (v) => ({ skill_id: s.id, ...publicView(v) }),
      (v) => String(v.version),
    );
  });

  emu.router.get('/v1/skills/:id/versions/:version', (r) => {
    const s = skills.must(r.params.id);
    return { status: 200, body: { skill_id: s.id, ...publicView(skillVersion(s, r.params.version)) } };
  });

  emu.router.get('/v1/skills/:id/versions/:version/content', (r) => {
    const v = skillVersion(skills.must(r.params.id), r.params.version);
    return downloadVersion(r, v, 'application/octet-stream');
  });

  emu.router.post(
    '/v1/skills/:id/archive',
    (r) => {
      return { status: 200, body: publicView(skills.archive(skills.must(r.params.id))) };
    },
    { body: 'none' },
  );

  emu.router.delete('/v1/skills/:id', (r) => {
    const s = skills.must(r.params.id);
    skills.delete(s.id);
    s._versions.forEach((v) => removeBlob(v._path));
    return { status: 204 };
  });
}

export type SkillRef = { skill_id: string; version?: 'latest' | number | string };

/**
 * Config rule 3 for agents and sessions: an omitted version is frozen to the current one, "latest"
 * stays symbolic, an exact version must exist. Returns the references as they are stored.
 */
export function checkSkillRefs(emu: Emulator, refs: SkillRef[], param: string): Array<{ skill_id: string; version: 'latest' | number }> {
  const skills = skillsOf(emu);
  const out = refs.map((ref, i) => {
    const found = skills.get(ref?.skill_id);
    const s = found && !found.archived_at ? found : invalidParam(`${param}[${i}].skill_id`, `skill ${String(ref?.skill_id)} not found`);
    if (ref.version === undefined) return { skill_id: s.id, version: s.latest_version };
    if (ref.version === 'latest') return { skill_id: s.id, version: 'latest' as const };
    const n = Number(ref.version);
    // The spec does not state the status of an unknown exact version: a bad field is 400 invalid_parameter_error (docs/service.md).
    if (!Number.isInteger(n) || !s._versions.some((v) => v.version === n))
      invalidParam(`${param}[${i}].version`, `skill ${s.id} has no version ${String(ref.version)}`);
    return { skill_id: s.id, version: n };
  });
  out.forEach((ref, i) => {
    const mixed = out.some((o) => o.skill_id === ref.skill_id && (o.version === 'latest') !== (ref.version === 'latest'));
    if (mixed) invalidParam(`${param}[${i}].version`, `skill ${ref.skill_id} is referenced both as "latest" and as an exact version`);
  });
  return out;
}
