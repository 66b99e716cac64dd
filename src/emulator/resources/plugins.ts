import { openSync, readSync, closeSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { LIMITS, PLUGIN_CATEGORIES, PLUGIN_LIST_SCOPES } from '../../wire/limits';
import { fail, invalidParam } from '../errors';
import { acceptUpload, removeBlob, type Form, type UploadedFile } from '../multipart';
import type { Emulator } from '../server';
import { listReply, publicView, nowIso, type Rec } from '../store';
import { queryEnum } from '../validate';
import { downloadVersion, packageVersion, type PackageVersion } from './skills';

type Plugin = Rec & {
  name: string;
  description: string;
  keywords: string[];
  categories?: string[];
  scope: 'official' | 'project';
  status: 'active' | 'archived';
  latest_version: string;
  /** The list item's pinned version: for a plugin read directly it is its latest published one. */
  version: string;
  archived_at: string | null;
  _versions: PackageVersion[];
};

interface Manifest {
  name: string;
  version: string;
  description?: string;
  keywords?: string[];
  categories?: string[];
}

/** What POST /v1/plugins/validate answers and a publish carries (`validation`). */
interface Validation {
  ok: boolean;
  errors: Array<{ message: string }>;
  manifest?: Manifest;
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MANIFEST_PATH = 'plugin.json';

/** Semantic-version order: numbers, then a pre-release sorts before its release. */
export function compareSemver(a: string, b: string): number {
  const [pa, pb] = [SEMVER.exec(a)!, SEMVER.exec(b)!];
  for (let i = 1; i <= 3; i++) if (pa[i] !== pb[i]) return Number(pa[i]) - Number(pb[i]);
  if (!pa[4] || !pb[4]) return (pa[4] ? -1 : 0) + (pb[4] ? 1 : 0);
  const [xa, xb] = [pa[4].split('.'), pb[4].split('.')];
  for (let i = 0; i < Math.max(xa.length, xb.length); i++) {
    if (xa[i] === undefined || xb[i] === undefined) return xa[i] === undefined ? -1 : 1;
    const [na, nb] = [/^\d+$/.test(xa[i]), /^\d+$/.test(xb[i])];
    if (xa[i] === xb[i]) continue;
    if (na && nb) return Number(xa[i]) - Number(xb[i]);
    if (na !== nb) return na ? -1 : 1;
    return xa[i] < xb[i] ? -1 : 1;
  }
  return 0;
}

/**
 * Emulator assumption on what makes a package unpublishable: not a zip archive (no `PK\x03\x04`
 * header or no central directory), no `plugin.json` at its root, a manifest that is not a JSON
 * object, a `name` outside `[a-z0-9][a-z0-9-]{0,63}`, a `version` that is not semver, or a
 * category outside the fixed vocabulary.
 */
export function validatePackage(file: UploadedFile): Validation {
  const errors: Array<{ message: string }> = [];
  if (!file.head.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) return { ok: false, errors: [{ message: 'the package is not a zip archive' }] };
  const text = readZipEntry(file.path, file.size, MANIFEST_PATH);
  if (text === undefined) return { ok: false, errors: [{ message: `the package has no ${MANIFEST_PATH} at its root` }] };
  let m: any;
  try {
    m = JSON.parse(text);
  } catch {
    m = undefined;
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return { ok: false, errors: [{ message: `${MANIFEST_PATH} is not a JSON object` }] };
  if (typeof m.name !== 'string' || !NAME.test(m.name)) errors.push({ message: 'manifest name must match [a-z0-9][a-z0-9-]{0,63}' });
  if (typeof m.version !== 'string' || !SEMVER.test(m.version)) errors.push({ message: 'manifest version must be a semantic version' });
  for (const c of m.categories ?? []) if (!(PLUGIN_CATEGORIES as readonly string[]).includes(c)) errors.push({ message: `unknown category ${String(c)}` });
  const manifest: Manifest = { name: m.name, version: m.version, description: m.description, keywords: m.keywords, categories: m.categories };
  return { ok: errors.length === 0, errors, manifest };
}

/** Reads one entry of a zip from disk through its central directory, without loading the archive. */
function readZipEntry(path: string, size: number, name: string): string | undefined {
  const fd = openSync(path, 'r');
  try {
    const read = (pos: number, len: number): Buffer => {
      const b = Buffer.alloc(Math.max(0, Math.min(len, size - pos)));
      readSync(fd, b, 0, b.length, pos);
      return b;
    };
    const tailLen = Math.min(size, 22 + 0xffff);
    const tail = read(size - tailLen, tailLen);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0) return undefined;
    const cd = read(tail.readUInt32LE(eocd + 16), tail.readUInt32LE(eocd + 12));
    for (let p = 0; p + 46 <= cd.length && cd.readUInt32LE(p) === 0x02014b50;) {
      const [method, compressed, nameLen, extraLen, commentLen, local] = [
        cd.readUInt16LE(p + 10),
        cd.readUInt32LE(p + 20),
        cd.readUInt16LE(p + 28),
        cd.readUInt16LE(p + 30),
        cd.readUInt16LE(p + 32),
        cd.readUInt32LE(p + 42),
      ];
      if (cd.toString('utf8', p + 46, p + 46 + nameLen) === name && compressed <= 1024 * 1024) {
        const header = read(local, 30);
        const data = read(local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28), compressed);
        return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
      }
      p += 46 + nameLen + extraLen + commentLen;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Platform plugins present in every emulator: read-only through the API. */
const OFFICIAL: Array<Pick<Plugin, 'name' | 'description' | 'keywords' | 'categories'>> = [
  { name: 'spreadsheet-tools', description: 'Read and write spreadsheets', keywords: ['xlsx', 'csv'], categories: ['finance', 'productivity'] },
  { name: 'code-review', description: 'Review pull requests', keywords: ['github', 'diff'], categories: ['dev_tools'] },
  { name: 'study-buddy', description: 'Flashcards and quizzes', keywords: ['learning'], categories: ['learning'] },
];

const pluginsOf = (emu: Emulator) => emu.collection<Plugin>('plugins', 'plugin', 'plugin');

export function registerPlugins(emu: Emulator): void {
  const plugins = pluginsOf(emu);
  for (const o of OFFICIAL) {
    plugins.insert({ ...o, scope: 'official', status: 'active', latest_version: '1.0.0', version: '1.0.0', archived_at: null, _versions: [] });
  }
  emu.onClose(() => plugins.values().forEach((p) => p._versions.forEach((v) => removeBlob(v._path))));

  /** An active plugin; archived ones have left the read API (404). */
  const active = (id: string): Plugin => {
    const p = plugins.get(id);
    return p && !p.archived_at ? p : fail('resource_not_found_error', `plugin ${id} not found`);
  };
  /** Official plugins are read-only; the spec states no status, a permission failure is 403. */
  const writable = (id: string): Plugin => {
    const p = active(id);
    return p.scope === 'official' ? fail('permission_denied_error', `plugin ${id} is an official plugin and read-only through the API`) : p;
  };
  const publishable = (form: Form): { manifest: Manifest; validation: Validation } => {
    const validation = validatePackage(form.file ?? form.claim());
    if (!validation.ok) invalidParam('body.file', `the package cannot be published: ${validation.errors.map((e) => e.message).join('; ')}`);
    return { manifest: validation.manifest!, validation };
  };
  const published = (p: Plugin, v: PackageVersion, validation: Validation) => ({
    status: 201,
    body: { plugin: publicView(p), version: { plugin_id: p.id, ...publicView(v) }, validation },
  });

  emu.router.post(
    '/v1/plugins',
    (r) =>
      acceptUpload(emu, r, LIMITS.pluginPackage, (form) => {
        const { manifest, validation } = publishable(form);
        // Names are unique among active project plugins; archiving releases one (Other states).
        if (plugins.values().some((p) => p.name === manifest.name && !p.archived_at)) fail('conflict_error', `a plugin named ${manifest.name} exists`);
        const v = packageVersion(form, manifest.version);
        const p = plugins.insert({
          name: manifest.name,
          description: manifest.description ?? '',
          keywords: manifest.keywords ?? [],
          ...(manifest.categories?.length ? { categories: manifest.categories } : {}),
          scope: 'project',
          status: 'active',
          latest_version: manifest.version,
          version: manifest.version,
          archived_at: null,
          _versions: [v],
        });
        return published(p, v, validation);
      }),
    { body: 'raw' },
  );

  emu.router.post(
    '/v1/plugins/validate',
    (r) =>
      acceptUpload(emu, r, LIMITS.pluginPackage, (form) => {
        const file = form.file ?? form.claim();
        return { status: 200, body: validatePackage(file) };
      }),
    { body: 'raw' },
  );

  emu.router.post(
    '/v1/plugins/:id/versions',
    (r) =>
      acceptUpload(emu, r, LIMITS.pluginPackage, (form) => {
        const p = writable(r.params.id);
        const { manifest, validation } = publishable(form);
        if (manifest.name !== p.name) invalidParam('body.file', `the manifest names ${manifest.name}, not ${p.name}`);
        if (p._versions.some((v) => v.version === manifest.version)) fail('conflict_error', `version ${manifest.version} of ${p.name} is already published`);
        const v = packageVersion(form, manifest.version);
        p._versions.push(v);
        const latest = compareSemver(manifest.version, p.latest_version) > 0 ? manifest.version : p.latest_version;
        plugins.touch(p, { latest_version: latest, version: latest } as Partial<Plugin>);
        return published(p, v, validation);
      }),
    { body: 'raw' },
  );

  emu.router.get('/v1/plugins', (r) => {
    const scope = queryEnum(r.query, 'scope', PLUGIN_LIST_SCOPES);
    const category = queryEnum(r.query, 'category', PLUGIN_CATEGORIES);
    const text = r.query.get('query')?.toLowerCase();
    const items = plugins
      .values()
      .filter(
        (p) =>
          !p.archived_at &&
          (!scope || p.scope === scope) &&
          (!category || p.categories?.includes(category)) &&
          (!text || [p.name, p.description, ...p.keywords].some((s) => s.toLowerCase().includes(text))),
      );
    items.sort((a, b) => (a.id < b.id ? -1 : 1));
    return listReply(items, r.query);
  });

  emu.router.get('/v1/plugins/:id', (r) => ({ status: 200, body: publicView(active(r.params.id)) }));

  emu.router.get('/v1/plugins/:id/versions', (r) => {
    const p = active(r.params.id);
    const newestFirst = [...p._versions].sort((a, b) => compareSemver(String(b.version), String(a.version)));
    return listReply(
      newestFirst,
      r.query,
      (v) => ({ plugin_id: p.id, ...publicView(v) }),
      (v) => String(v.version),
    );
  });

  emu.router.get('/v1/plugins/:id/versions/:version/content', (r) => {
    const p = active(r.params.id);
    const v = p._versions.find((x) => x.version === r.params.version) ?? fail('resource_not_found_error', `plugin ${p.id} has no version ${r.params.version}`);
    return downloadVersion(r, v, 'application/zip');
  });

  emu.router.post(
    '/v1/plugins/:id/archive',
    (r) => {
      plugins.touch(writable(r.params.id), { archived_at: nowIso(), status: 'archived' } as Partial<Plugin>);
      return { status: 204 };
    },
    { body: 'none' },
  );
}

export type PluginRef = { plugin_id: string; version?: string };

/**
 * Config rule 4: an official reference carries no version; a project reference is "latest", an
 * exact published version (still valid after the plugin is archived), or omitted and pinned now.
 */
export function checkPluginRefs(emu: Emulator, refs: PluginRef[], param: string): Array<{ plugin_id: string; version?: string }> {
  const plugins = pluginsOf(emu);
  return refs.map((ref, i) => {
    const found = plugins.get(ref?.plugin_id);
    const exact = Boolean(found && typeof ref.version === 'string' && found._versions.some((v) => v.version === ref.version));
    const p = found && (!found.archived_at || exact) ? found : invalidParam(`${param}[${i}].plugin_id`, `plugin ${String(ref?.plugin_id)} not found`);
    if (p.scope === 'official') {
      if ('version' in ref) invalidParam(`${param}[${i}].version`, 'an official plugin reference must omit version');
      return { plugin_id: p.id };
    }
    if (ref.version === undefined) return { plugin_id: p.id, version: p.latest_version };
    if (ref.version !== 'latest' && !exact) invalidParam(`${param}[${i}].version`, `plugin ${p.id} has no published version ${String(ref.version)}`);
    return { plugin_id: p.id, version: ref.version };
  });
}
