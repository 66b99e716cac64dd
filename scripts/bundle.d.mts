export function bundle(outdir: string, logLevel?: 'warning' | 'error', without?: string[], options?: { sea?: boolean }): Promise<void>;
export function buildPrivateSvc(work: string, without?: string[]): Promise<string>;
