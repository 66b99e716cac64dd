import type { Metafile } from 'esbuild';

export function toCommonJs(outdir: string, metafile: Metafile, root: string): Promise<void>;
