/** Builds dist/, or with `ifStale` only when it is missing or older than the sources. */
export function build(options?: { ifStale?: boolean }): Promise<void>;
