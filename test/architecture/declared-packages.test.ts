import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The package a bare import specifier names: `ink/build/x` → ink, `@scope/pkg/x` → @scope/pkg; undefined for node: and relative ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

describe('the packages svc imports', () => {
  it('every package imported from src/ is declared in package.json, none resolved through another package', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
    const imported = new Map<string, string>();
    (function walk(d: string) {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(name))
          for (const m of readFileSync(p, 'utf8').matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
            const name = packageOf((m[1] ?? m[2])!);
            if (name !== undefined && !imported.has(name)) imported.set(name, p);
          }
      }
    })(join(root, 'src'));
    expect(imported.size).toBeGreaterThan(3);
    const undeclared = [...imported].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (imported in ${file})`);
    expect(undeclared).toEqual([]);
  });
});
