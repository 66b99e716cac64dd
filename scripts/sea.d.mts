/** The path of `target`'s Node binary (the executable's own build), from the cache or fetched and checked. */
export function nodeBinary(target: string, options?: { progress?: boolean }): string;
export function checkedNode(dir: string, tgz: string, integrity: string, file: string): string | undefined;
export const NODE_VERSION: string;
export function hostTarget(): string;
export function buildSea(options?: { target?: string; out?: string; without?: string[] }): Promise<string>;
/** Where in the executable `exe` the code cache file `cache` begins. */
export function cacheOffset(exe: string, cache: string): number;
