/**
 * Which rule of a policy decides a tool call: the first whose every condition holds (docs/decisions/approve.md). No
 * rule, no decision: a call no rule names is left to a human, never allowed.
 */
import { posix } from 'node:path';
import { defaultDenyMessage, type Decision, type LabelTest, type Match, type Policy, type Rule, type StringTest } from './policy';
import { MAX_REGEX_INPUT } from './safe-regex';

/** What a rule can look at: the call, its session's agent, metadata and environment, and its thread. */
export interface Call {
  tool: string;
  input: unknown;
  agent: { id?: string; name?: string; metadata?: Record<string, unknown> };
  metadata: Record<string, unknown>;
  environment: { id?: string; name?: string };
  thread: 'main' | 'child';
}

export type Verdict =
  | { kind: 'decided'; rule: string; decision: Decision; message?: string }
  /** No rule matched, or one could not be evaluated (`why`): a human decides. */
  | { kind: 'none'; why?: string };

type Test = 'yes' | 'no' | { undecided: string };

export function decide(policy: Policy, call: Call): Verdict {
  for (const rule of policy.rules) {
    const t = matches(rule.match, call);
    if (t === 'no') continue;
    if (t !== 'yes') return { kind: 'none', why: `rule "${rule.name}": ${t.undecided}` };
    return verdictOf(rule);
  }
  return { kind: 'none' };
}

function verdictOf(rule: Rule): Verdict {
  if (rule.decision !== 'deny') return { kind: 'decided', rule: rule.name, decision: rule.decision };
  return { kind: 'decided', rule: rule.name, decision: 'deny', message: rule.message ?? defaultDenyMessage(rule.name) };
}

function matches(m: Match, call: Call): Test {
  if (m.thread !== undefined && m.thread !== call.thread) return 'no';
  if (m.agent !== undefined && m.agent !== call.agent.id && m.agent !== call.agent.name) return 'no';
  if (m.environment !== undefined && (call.environment.id === undefined || (m.environment !== call.environment.id && m.environment !== call.environment.name)))
    return 'no';
  if (m.labels && !labelsHold(m.labels, call.agent.metadata ?? {})) return 'no';
  if (m.metadata && !labelsHold(m.metadata, call.metadata)) return 'no';
  if (m.tool) {
    const t = testString(m.tool, call.tool);
    if (t !== 'yes') return t;
  }
  for (const [field, test] of Object.entries(m.input ?? {})) {
    const v = fieldOf(call.input, field);
    if (typeof v !== 'string') return 'no';
    const t = testString(test, v);
    if (t !== 'yes') return t;
  }
  return 'yes';
}

function labelsHold(want: Record<string, LabelTest>, have: Record<string, unknown>): boolean {
  return Object.entries(want).every(([k, v]) => {
    const present = Object.hasOwn(have, k) && have[k] !== null && have[k] !== undefined;
    if (typeof v === 'boolean') return v === present;
    return present && String(have[k]) === v;
  });
}

/** A field of the input by name; `a.b` reaches into an object. Only own members count. */
function fieldOf(input: unknown, path: string): unknown {
  let v: unknown = input;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** Line breaks and other controls: a value holding one is never matched by a prefix or a glob (`ls\nrm -rf /`). */
const CONTROLS = /[\u0000-\u001f\u007f]/;

export function testString(t: StringTest, v: string): Test {
  switch (t.kind) {
    case 'exact':
      return v === t.value ? 'yes' : 'no';
    case 'prefix':
      return !CONTROLS.test(v) && v.startsWith(t.value) ? 'yes' : 'no';
    case 'glob':
      return !CONTROLS.test(v) && t.re.test(v) ? 'yes' : 'no';
    case 'under':
      return isUnder(v, t.value) ? 'yes' : 'no';
    case 'regex':
      if (v.length > MAX_REGEX_INPUT) return { undecided: `the value is longer than ${MAX_REGEX_INPUT} characters, more than a regular expression is run on` };
      return t.re.test(v) ? 'yes' : 'no';
  }
}

/** An absolute path inside `folder` (or the folder itself), once `.` and `..` are resolved: `/srv/../etc` is not under /srv. */
export function isUnder(path: string, folder: string): boolean {
  if (!path.startsWith('/') || path.includes('\0')) return false;
  const p = posix.normalize(path);
  if (folder === '/') return true;
  return p === folder || p === `${folder}/` || p.startsWith(`${folder}/`);
}
