export function bundle(outdir: string, logLevel?: 'warning' | 'error'): Promise<void>;
export function buildPrivateSvc(work: string): Promise<string>;
