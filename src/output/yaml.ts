import { escapeYamlControls, hasRawInJson } from './controls';

/** The yaml package, loaded on first use (its CommonJS build arrives as a default export when bundled). */
export async function loadYaml(): Promise<typeof import('yaml')> {
  const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  return mod.default ?? mod;
}

/**
 * A value as YAML that a terminal prints inert. The yaml package escapes C0 controls but leaves DEL and the C1
 * controls raw, even inside double quotes: a string holding one is forced into double quotes, where it is escaped.
 */
export async function yamlText(value: unknown): Promise<string> {
  const YAML = await loadYaml();
  const doc = new YAML.Document(value);
  YAML.visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && hasRawInJson(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return escapeYamlControls(doc.toString());
}
