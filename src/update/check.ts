/**
 * `svc __update-check`, run detached once a day: reads svc's registry document and caches its newest version, when
 * the document is svc's own: its `name` is svc's package name and its `repository` svc's own repository (package.json).
 * Any other document (another project under the name, a mirror answering something else) is ignored, silently.
 */
import { closeSync } from 'node:fs';
import type { Env } from '../config/paths';
import { SVC_REPOSITORY } from '../version';
import { openUpdateFolder, readState, updateSource, writeState, type UpdateSource } from './notice';

/** A package's full registry document is a few KiB for svc; a mirror answering more than this is not read. */
const MAX_BODY = 8 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
const SHORTHAND_HOSTS: Record<string, string> = { github: 'github.com', gitlab: 'gitlab.com', bitbucket: 'bitbucket.org' };

/**
 * A `repository` (package.json's field: a URL string, npm's `owner/repo` or `github:owner/repo` shorthand, or
 * `{ type, url }`) as `host/owner/repo`, lower case: `git+https://github.com/o/r.git`, `https://github.com/o/r`,
 * `git@github.com:o/r.git` and `github:o/r` are all `github.com/o/r`. Undefined when there is none.
 */
export function repositoryKey(repository: unknown): string | undefined {
  const url = typeof repository === 'string' ? repository : (repository as { url?: unknown } | null | undefined)?.url;
  if (typeof url !== 'string' || !url.trim()) return undefined;
  const short = /^(?:(github|gitlab|bitbucket):)?([\w.-]+\/[\w.-]+)$/.exec(url.trim());
  const path = short
    ? `${SHORTHAND_HOSTS[short[1] ?? 'github']}/${short[2]}`
    : url
        .trim()
        .replace(/^git\+/, '')
        .replace(/^[a-z][\w+.-]*:\/\//i, '')
        .replace(/^[^@/]+@/, '')
        .replace(/^([^/:]+):(?!\d)/, '$1/');
  return path
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .toLowerCase();
}

interface RegistryDocument {
  name?: unknown;
  repository?: unknown;
  'dist-tags'?: { latest?: unknown };
  versions?: Record<string, { repository?: unknown } | undefined>;
}

/** `dist-tags.latest` of `doc` when the document is svc's own (its name and repository), else undefined. */
export function latestOfOwn(doc: RegistryDocument, source: UpdateSource, ownRepository: unknown = SVC_REPOSITORY): string | undefined {
  const latest = doc['dist-tags']?.latest;
  if (typeof latest !== 'string' || doc.name !== source.name) return undefined;
  const ours = repositoryKey(ownRepository);
  const theirs = repositoryKey(doc.repository ?? doc.versions?.[latest]?.repository);
  return ours !== undefined && theirs === ours ? latest : undefined;
}

/** The newest version in `source`'s document when it is svc's own (the full document: the abbreviated one has no `repository`). */
export async function fetchLatest(source: UpdateSource, signal = AbortSignal.timeout(TIMEOUT_MS)): Promise<string | undefined> {
  const res = await fetch(source.url, { headers: { accept: 'application/json' }, redirect: 'follow', signal });
  if (!res.ok || !res.body) return undefined;
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    if (text.length > MAX_BODY) return undefined;
  }
  return latestOfOwn(JSON.parse(text) as RegistryDocument, source);
}

/** Asks, then records the answer and its source beside the time of asking; a failure keeps what the cache knew. */
export async function runUpdateCheck(env: Env): Promise<void> {
  const source = updateSource(env);
  const latest = await fetchLatest(source).catch(() => undefined);
  if (latest === undefined) return;
  const folder = openUpdateFolder(env);
  if (folder === undefined) return;
  try {
    const state = readState(folder, source);
    writeState(folder, { checkedAt: state?.checkedAt ?? Date.now(), latest, notifiedAt: state?.notifiedAt, source });
  } finally {
    closeSync(folder);
  }
}
