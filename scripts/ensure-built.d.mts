export const STAMP: string;
export function buildIsStale(): boolean;
export function ensureBuilt(): void;
