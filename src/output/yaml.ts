/** The yaml package, loaded on first use (its CommonJS build arrives as a default export when bundled). */
export async function loadYaml(): Promise<typeof import('yaml')> {
  const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  return mod.default ?? mod;
}
