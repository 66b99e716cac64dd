/** `code` with each module wrapper a plain function, and the count; throws where the shape is not esbuild's. */
export function plainWrappers(code: string): { code: string; count: number };
