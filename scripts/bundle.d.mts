export function bundle(outdir: string, logLevel?: 'warning' | 'error', without?: string[]): Promise<void>;
export function buildPrivateSvc(work: string, without?: string[]): Promise<string>;
