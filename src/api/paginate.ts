import type { ApiClient, Query, RequestSpec } from './client';
import { ApiError } from './errors';

export interface Page<T> {
  items: T[];
  next_page_token?: string | null;
}

export interface ListOptions {
  pageSize?: number;
  pageToken?: string;
  /** Stop after this many items. */
  limit?: number;
  /** Follow next_page_token to the end; otherwise one page. */
  all?: boolean;
  /** Told when the listing stops with items left: one page, or --limit. */
  onRest?: (rest: ListRest) => void;
  /** Told after each page is read (a selection counts the pages it read). */
  onPage?: () => void;
  /** Ends the listing between (and during) page reads. */
  signal?: AbortSignal;
}

/**
 * A listing cut short: how many items were yielded, how many are left when that is known (the cut fell inside the
 * last page), and the token of the next page when the cut fell on a page end.
 */
export interface ListRest {
  shown: number;
  more?: number;
  nextPageToken?: string;
}

/**
 * Yields items page by page (constant memory), following `next_page_token` when asked. `spec` adds request
 * options to every page (the files compatibility format leaves out the version header).
 */
export async function* paginate<T>(
  client: ApiClient,
  path: string,
  query: Query,
  opts: ListOptions,
  spec: Pick<RequestSpec, 'versionHeader'> = {},
): AsyncGenerator<T> {
  let token = opts.pageToken;
  let left = opts.limit ?? Infinity;
  let shown = 0;
  const pageSize = opts.pageSize ?? (opts.limit !== undefined && opts.limit <= 1000 && !opts.all ? opts.limit : undefined);
  for (;;) {
    const { status, data } = await client.json<Page<T>>({
      ...spec,
      method: 'GET',
      path,
      query: { ...query, page_size: pageSize, page_token: token },
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    opts.onPage?.();
    if (!Array.isArray(data.items))
      throw new ApiError({ status, message: `the service answered ${status} without items, but GET ${path} answers a page {items, next_page_token}` });
    token = data.next_page_token ?? undefined;
    for (const [i, item] of data.items.entries()) {
      if (left-- <= 0) {
        // Cut inside the page: the next page's token would skip the rest of this one.
        opts.onRest?.(token ? { shown } : { shown, more: data.items.length - i });
        return;
      }
      shown++;
      yield item;
    }
    const more = opts.all || (opts.limit !== undefined && left > 0);
    if (!token) return;
    if (!more || left <= 0) {
      opts.onRest?.({ shown, nextPageToken: token });
      return;
    }
  }
}
