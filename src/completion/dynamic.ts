import type { Command } from 'commander';
import type { ApiClient } from '../api/client';
import type { Obj } from '../api/resources';
import { configDir } from '../config/paths';
import { Ctx } from '../context';
import type { Io } from '../io';
import { CompletionCache, type Candidate } from './cache';
import { listingFor, type Listing } from './resources';
import { wantedAt } from './words';

/** The whole answer, node's start included, stays within 300 ms; the service gets what is left, at least the minimum. */
const ANSWER_BUDGET_MS = 270;
const MIN_FETCH_MS = 100;
const PAGE_SIZE = 100;

/**
 * Candidates for the last of `words` (the words after `svc`), read against `program`, the command tree with the
 * words' group loaded, built by the caller so that completion does not depend on the command layer. `io` is quiet
 * (its stderr discards). Never throws, never waits past the budget.
 */
export async function completeWords(program: Command, words: string[], quiet: Io): Promise<Candidate[]> {
  try {
    const wanted = wantedAt(program, words);
    if (wanted?.choices) return wanted.choices.filter((c) => c.startsWith(wanted.prefix)).map((value) => ({ value, label: '' }));
    const listing = wanted && listingFor(wanted.group, wanted.name, wanted.given, PAGE_SIZE);
    if (!wanted || !listing) return [];
    const items = await cachedList(new Ctx(quiet, { ...wanted.globals, maxRetries: '0' }), listing);
    return items.filter((c) => c.value.startsWith(wanted.prefix));
  } catch {
    return [];
  }
}

/** A fresh cached list (unless volatile), else the first page if it comes within the budget, else whatever the cache has. */
async function cachedList(ctx: Ctx, listing: Listing): Promise<Candidate[]> {
  const s = ctx.settings;
  const cache = new CompletionCache(configDir(ctx.io.env), ctx.now);
  const key = `${s.profile.value}|${s.baseUrl.value}|${listing.key}`;
  const cached = cache.read(key);
  if (cached?.fresh && !listing.volatile) return cached.items;
  let timer: NodeJS.Timeout | undefined;
  try {
    const client = await ctx.api();
    const abort = new AbortController();
    // performance.now() counts from the process's start, so a real `svc __complete` also pays for node's startup.
    timer = setTimeout(() => abort.abort(), Math.max(MIN_FETCH_MS, ANSWER_BUDGET_MS - performance.now()));
    const items = await firstPage(client, listing, abort.signal);
    try {
      cache.write(key, items);
    } catch {
      // an unwritable config directory costs the next completion a request, nothing more
    }
    return items;
  } catch {
    return cached?.items ?? [];
  } finally {
    clearTimeout(timer);
  }
}

async function firstPage(client: ApiClient, listing: Listing, signal: AbortSignal): Promise<Candidate[]> {
  const deadline = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('completion budget elapsed'))));
  const { data } = await Promise.race([client.json<Obj>({ method: 'GET', path: listing.path, query: listing.query, signal }), deadline]);
  return data && typeof data === 'object' ? listing.pick(data) : [];
}
