import type { Command } from 'commander';
import type { ApiClient } from '../api/client';
import type { Obj } from '../api/resources';
import { configDir } from '../config/paths';
import { Ctx } from '../runtime/context';
import type { Io } from '../runtime/io';
import { CompletionCache, type Candidate } from './cache';
import { listingFor, namedParents, type Listing } from './resources';
import { wantedAt, type Wanted } from './words';

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
    if (!wanted || !listingFor(wanted.group, wanted.name, wanted.given, PAGE_SIZE)) return [];
    const lists = new Lists(new Ctx(quiet, { ...wanted.globals, maxRetries: '0' }));
    const given = await withParentIds(lists, wanted);
    const items = await lists.read(listingFor(wanted.group, wanted.name, given, PAGE_SIZE)!);
    return items.filter((c) => c.value.startsWith(wanted.prefix));
  } catch {
    return [];
  }
}

/**
 * The arguments given, with a parent given by name replaced by its ID, as the commands take names: the parent's list
 * (cached, or one request) says which of its IDs the name stands for; an ID, or a name it does not hold alone, stays.
 */
async function withParentIds(lists: Lists, wanted: Wanted): Promise<Record<string, string>> {
  const given = { ...wanted.given };
  for (const { arg, listing } of namedParents(wanted.group, wanted.name, given, PAGE_SIZE)) {
    const id = (await lists.read(listing)).find((c) => c.value === given[arg])?.id;
    if (id) given[arg] = id;
  }
  return given;
}

/**
 * The lists one answer reads: a fresh cached list (unless volatile), else the first page if it comes within the
 * answer's budget, else whatever the cache has. After a request that failed, no other is sent.
 */
class Lists {
  private readonly cache: CompletionCache;
  private readonly scope: string;
  /** When the answer is due: one budget for every request it makes; undefined when start-up already spent it. */
  private readonly deadline?: number;
  private failed = false;

  constructor(private readonly ctx: Ctx) {
    const s = ctx.settings;
    this.cache = new CompletionCache(configDir(ctx.io.env), ctx.now);
    this.scope = `${s.profile.value}|${s.baseUrl.value}`;
    // performance.now() counts from the process's start, so a real `svc __complete` also pays for node's startup.
    const left = ANSWER_BUDGET_MS - performance.now();
    if (left >= MIN_FETCH_MS) this.deadline = performance.now() + left;
  }

  async read(listing: Listing): Promise<Candidate[]> {
    const key = `${this.scope}|${listing.key}`;
    const cached = this.cache.read(key);
    if (cached?.fresh && !listing.volatile) return cached.items;
    // Past the budget already (a loaded machine), each request gets the minimum, as one alone would.
    const left = this.deadline === undefined ? MIN_FETCH_MS : this.deadline - performance.now();
    if (this.failed || left <= 0) return cached?.items ?? [];
    let timer: NodeJS.Timeout | undefined;
    try {
      const client = await this.ctx.api();
      const abort = new AbortController();
      timer = setTimeout(() => abort.abort(), left);
      const items = await firstPage(client, listing, abort.signal);
      try {
        this.cache.write(key, items);
      } catch {
        // an unwritable config directory costs the next completion a request, nothing more
      }
      return items;
    } catch {
      this.failed = true;
      return cached?.items ?? [];
    } finally {
      clearTimeout(timer);
    }
  }
}

async function firstPage(client: ApiClient, listing: Listing, signal: AbortSignal): Promise<Candidate[]> {
  const deadline = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('completion budget elapsed'))));
  const { data } = await Promise.race([client.json<Obj>({ method: 'GET', path: listing.path, query: listing.query, signal }), deadline]);
  return data && typeof data === 'object' ? listing.pick(data) : [];
}
