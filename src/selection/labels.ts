import { UsageError } from '../runtime/errors';

/** One requirement of a label selector, tested against `metadata`. */
type Requirement = { key: string; op: '=' | '!=' | 'exists' | '!exists'; value?: string };

export type LabelTest = (metadata: unknown) => boolean;

const KEY = /^[^\s=!,()]+$/;
const VALUE = /^[^\s=!,()]*$/;

/**
 * kubectl's equality-based label selector over `metadata`: `key=value` (or `==`), `key!=value`, `key`, `!key`,
 * comma-separated, all required. A malformed one is exit 2 naming the flag.
 */
export function parseLabelSelector(text: string, flag = '--selector'): LabelTest {
  const reqs = text.split(',').map((part) => requirement(part.trim(), text, flag));
  return (metadata) => {
    const m = metadata !== null && typeof metadata === 'object' ? (metadata as Record<string, unknown>) : {};
    return reqs.every((r) => holds(r, m));
  };
}

function requirement(part: string, whole: string, flag: string): Requirement {
  const bad = (why: string) => new UsageError(`${flag} "${whole}" is not a label selector (${why}): use key=value, key!=value, key or !key, comma-separated`);
  if (part === '') throw bad('an empty requirement');
  const m = /^([^=!]*)(==|!=|=)(.*)$/.exec(part);
  if (m) {
    const [, key, op, value] = m;
    if (!KEY.test(key)) throw bad(`no key before "${op}"`);
    if (!VALUE.test(value)) throw bad(`"${value}" is not a value`);
    return { key, op: op === '!=' ? '!=' : '=', value };
  }
  if (part.startsWith('!')) {
    const key = part.slice(1);
    if (!KEY.test(key)) throw bad(`"${part}" names no key`);
    return { key, op: '!exists' };
  }
  if (!KEY.test(part)) throw bad(`"${part}" is not a key`);
  return { key: part, op: 'exists' };
}

function holds(r: Requirement, m: Record<string, unknown>): boolean {
  const has = Object.hasOwn(m, r.key);
  switch (r.op) {
    case '=':
      return has && String(m[r.key]) === r.value;
    case '!=':
      // As in kubectl: a missing key satisfies `!=`.
      return !has || String(m[r.key]) !== r.value;
    case 'exists':
      return has;
    case '!exists':
      return !has;
  }
}
