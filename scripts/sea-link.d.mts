/** The asset of the single executable's chunks outside its main. */
export const REST_ASSET: string;
/** Every chunk of a SEA build in `dir`, by the key the chunks require each other by. */
export function chunkKeys(dir: string): string[];
/** The SEA build in `dir` linked: the main (the chunks of `core`, or all) and the rest asset's text. */
export function linkChunks(dir: string, core?: Set<string>): { main: string; rest: string };
