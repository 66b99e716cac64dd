/** `svc __update-check`, run detached once a day: asks the registry for the newest version and caches it. */
import { closeSync } from 'node:fs';
import type { Env } from '../config/paths';
import { DEFAULT_UPDATE_URL, openUpdateFolder, readState, writeState } from './notice';

/** A registry document is a few KiB abbreviated; a mirror answering more than this is not read. */
const MAX_BODY = 8 * 1024 * 1024;
const TIMEOUT_MS = 10_000;

/** `dist-tags.latest` of the package's registry document (abbreviated, as npm asks for it). */
export async function fetchLatest(url: string, signal = AbortSignal.timeout(TIMEOUT_MS)): Promise<string | undefined> {
  const res = await fetch(url, { headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' }, redirect: 'follow', signal });
  if (!res.ok || !res.body) return undefined;
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    if (text.length > MAX_BODY) return undefined;
  }
  const latest = (JSON.parse(text) as { 'dist-tags'?: { latest?: unknown } })['dist-tags']?.latest;
  return typeof latest === 'string' ? latest : undefined;
}

/** Asks, then records the answer beside the time of asking; a failure keeps what the cache knew. */
export async function runUpdateCheck(env: Env): Promise<void> {
  const latest = await fetchLatest(env.SVC_UPDATE_URL || DEFAULT_UPDATE_URL).catch(() => undefined);
  if (latest === undefined) return;
  const folder = openUpdateFolder(env);
  if (folder === undefined) return;
  try {
    const state = readState(folder);
    writeState(folder, { checkedAt: state?.checkedAt ?? Date.now(), latest, notifiedAt: state?.notifiedAt });
  } finally {
    closeSync(folder);
  }
}
