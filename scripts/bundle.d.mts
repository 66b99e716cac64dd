export function bundle(outdir: string, logLevel?: 'warning' | 'error'): Promise<void>;
