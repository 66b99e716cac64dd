import type { Metafile } from 'esbuild';

export function toCommonJs(outdir: string, metafile: Metafile, root: string, options?: { shareNamespaces?: boolean; minify?: boolean }): Promise<string[]>;
