/**
 * An approval policy: a YAML file of rules, first match wins (docs/behaviour.md "Approvals"; docs/decisions/approve.md). Parsing
 * checks everything a rule could get wrong, with the line and column of each problem, before anything is answered:
 * unknown keys, wrong types, unknown decisions, regular expressions that could run away.
 */
import { isAbsolute, posix } from 'node:path';
import type { Document, LineCounter, Node as YamlNode, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { loadYaml } from '../output/yaml';
import { regexRisk } from './safe-regex';

export type Decision = 'allow' | 'deny' | 'ask' | 'ignore';
export const DECISIONS: readonly Decision[] = ['allow', 'deny', 'ask', 'ignore'];

/** How one string is tested: exactly, by prefix, glob, regular expression, or as a path under a folder. */
export type StringTest =
  | { kind: 'exact'; value: string }
  | { kind: 'prefix'; value: string }
  | { kind: 'glob'; value: string; re: RegExp }
  | { kind: 'regex'; value: string; re: RegExp }
  | { kind: 'under'; value: string };

export const STRING_TESTS = ['prefix', 'glob', 'regex', 'under'] as const;

/** A metadata value: equal to a string, or (true/false) the key present or absent. */
export type LabelTest = string | boolean;

export interface Match {
  tool?: StringTest;
  input?: Record<string, StringTest>;
  agent?: string;
  labels?: Record<string, LabelTest>;
  metadata?: Record<string, LabelTest>;
  environment?: string;
  thread?: 'main' | 'child';
}

export interface Rule {
  name: string;
  match: Match;
  decision: Decision;
  /** For `deny`: what the agent is told. */
  message?: string;
  /** Where the rule starts in the file (line, 1-based). */
  line: number;
}

export interface Policy {
  file: string;
  rules: Rule[];
}

/** One problem of a policy file, where it is. */
export interface PolicyIssue {
  line: number;
  col: number;
  message: string;
}

/** A policy file that cannot be used: every problem, each `FILE:LINE:COL: message`. */
export class PolicyError extends Error {
  override name = 'PolicyError';
  constructor(
    readonly file: string,
    readonly issues: PolicyIssue[],
  ) {
    issues.sort((a, b) => a.line - b.line || a.col - b.col);
    super(issues.map((i) => `${file}:${i.line}:${i.col}: ${i.message}`).join('\n'));
  }
}

/** What the message of a `deny` without one says. */
export const defaultDenyMessage = (rule: string) => `Denied by the approval policy (rule "${rule}").`;

const TOP_KEYS = ['rules'];
const RULE_KEYS = ['name', 'match', 'decision', 'message'];
const MATCH_KEYS = ['tool', 'input', 'agent', 'labels', 'metadata', 'environment', 'thread'];

/** Parses and checks a policy; throws PolicyError listing every problem found. */
export async function parsePolicy(text: string, file: string): Promise<Policy> {
  const YAML = await loadYaml();
  const lines = new YAML.LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const checker = new Checker(YAML, lines);
  for (const e of doc.errors) checker.at(e.pos[0], e.message.split('\n')[0]);
  if (checker.issues.length) throw new PolicyError(file, checker.issues);
  const rules = checker.policy(doc);
  if (checker.issues.length) throw new PolicyError(file, checker.issues);
  return { file, rules };
}

type Yaml = typeof import('yaml');

class Checker {
  readonly issues: PolicyIssue[] = [];
  constructor(
    private readonly Y: Yaml,
    private readonly lines: LineCounter,
  ) {}

  at(offset: number, message: string): void {
    const { line, col } = this.lines.linePos(offset);
    this.issues.push({ line, col, message });
  }

  private where(node: YamlNode | Pair | null | undefined, fallback = 0): number {
    const n = (node && this.Y.isPair(node) ? node.key : node) as YamlNode | null | undefined;
    return n?.range?.[0] ?? fallback;
  }

  policy(doc: Document.Parsed): Rule[] {
    const root = doc.contents;
    if (!root || !this.Y.isMap(root)) {
      this.at(this.where(root), 'a policy is a mapping with a "rules" list');
      return [];
    }
    const top = this.entries(root, TOP_KEYS, 'the policy');
    const list = top.get('rules');
    if (!list) {
      this.at(this.where(root), 'a policy needs "rules": a list of rules, first match wins');
      return [];
    }
    if (!this.Y.isSeq(list.value)) {
      this.at(this.where(list.value as YamlNode, this.where(list)), '"rules" is a list of rules');
      return [];
    }
    const rules: Rule[] = [];
    const names = new Map<string, number>();
    for (const item of (list.value as YAMLSeq).items as YamlNode[]) {
      const rule = this.rule(item);
      if (!rule) continue;
      const before = names.get(rule.name);
      if (before !== undefined) this.at(this.where(item), `rule "${rule.name}" is already named on line ${before}: names are what the audit log shows`);
      names.set(rule.name, rule.line);
      rules.push(rule);
    }
    return rules;
  }

  /** A mapping's pairs by key; a key not in `known` is an error naming those that are. */
  private entries(map: YAMLMap, known: readonly string[], what: string): Map<string, Pair> {
    const out = new Map<string, Pair>();
    for (const pair of map.items as Pair[]) {
      const key = this.Y.isScalar(pair.key) ? String((pair.key as Scalar).value) : undefined;
      if (key === undefined) {
        this.at(this.where(pair), `${what}: keys are plain words`);
        continue;
      }
      if (!known.includes(key)) {
        this.at(this.where(pair), `${what}: unknown key "${key}" (known: ${known.join(', ')})`);
        continue;
      }
      out.set(key, pair);
    }
    return out;
  }

  private rule(node: YamlNode): Rule | undefined {
    const start = this.where(node);
    if (!this.Y.isMap(node)) {
      this.at(start, 'a rule is a mapping with name, match and decision');
      return undefined;
    }
    const line = this.lines.linePos(start).line;
    const e = this.entries(node, RULE_KEYS, 'a rule');
    const name = this.string(e.get('name'), 'name');
    const what = name === undefined ? `the rule on line ${line}` : `rule "${name}"`;
    if (!e.has('name')) this.at(start, 'a rule needs a "name": the audit log and the metrics show it');
    const decisionText = this.string(e.get('decision'), 'decision');
    if (!e.has('decision')) this.at(start, `${what} needs a "decision": ${DECISIONS.join(', ')}`);
    let decision: Decision | undefined;
    if (decisionText !== undefined) {
      if ((DECISIONS as readonly string[]).includes(decisionText)) decision = decisionText as Decision;
      else this.at(this.where(e.get('decision')!.value as YamlNode), `${what}: unknown decision "${decisionText}" (use ${DECISIONS.join(', ')})`);
    }
    const message = this.string(e.get('message'), 'message');
    if (message !== undefined && decision !== undefined && decision !== 'deny')
      this.at(this.where(e.get('message')), `${what}: "message" is what a deny tells the agent; a ${decision} sends none`);
    const matchPair = e.get('match');
    if (!matchPair) this.at(start, `${what} needs "match" (an empty mapping {} matches every call)`);
    const match = matchPair ? this.match(matchPair, what) : undefined;
    if (name === undefined || decision === undefined || !match) return undefined;
    return { name, match, decision, ...(message !== undefined ? { message } : {}), line };
  }

  private match(pair: Pair, what: string): Match | undefined {
    const node = pair.value as YamlNode | null;
    if (!node || !this.Y.isMap(node)) {
      this.at(this.where(node, this.where(pair)), `${what}: "match" is a mapping (tool, input, agent, labels, metadata, environment, thread)`);
      return undefined;
    }
    const e = this.entries(node, MATCH_KEYS, `${what} match`);
    const m: Match = {};
    const tool = e.get('tool');
    if (tool) m.tool = this.stringTest(tool, `${what} match.tool`, ['glob', 'prefix', 'regex']);
    const input = e.get('input');
    if (input) {
      const map = input.value as YamlNode | null;
      if (!map || !this.Y.isMap(map)) this.at(this.where(map, this.where(input)), `${what}: match.input maps the input's fields to tests`);
      else {
        m.input = Object.create(null) as NonNullable<Match['input']>;
        for (const f of map.items as Pair[]) {
          const field = this.Y.isScalar(f.key) ? String((f.key as Scalar).value) : '';
          if (!field) {
            this.at(this.where(f), `${what}: match.input keys are field names`);
            continue;
          }
          const t = this.stringTest(f, `${what} match.input.${field}`, STRING_TESTS);
          if (t) m.input[field] = t;
        }
      }
    }
    for (const key of ['agent', 'environment'] as const) {
      const v = this.string(e.get(key), `match.${key}`);
      if (v !== undefined) m[key] = v;
    }
    for (const key of ['labels', 'metadata'] as const) {
      const p = e.get(key);
      if (p) m[key] = this.labels(p, `${what} match.${key}`);
    }
    const thread = this.string(e.get('thread'), 'match.thread');
    if (thread !== undefined) {
      if (thread === 'main' || thread === 'child') m.thread = thread;
      else this.at(this.where(e.get('thread')!.value as YamlNode), `${what}: match.thread is main or child (got "${thread}")`);
    }
    return m;
  }

  private labels(pair: Pair, what: string): Record<string, LabelTest> {
    // Keyed by names the policy's author wrote: `__proto__` is a key like any other (a plain object would drop it).
    const out: Record<string, LabelTest> = Object.create(null) as Record<string, LabelTest>;
    const map = pair.value as YamlNode | null;
    if (!map || !this.Y.isMap(map)) {
      this.at(this.where(map, this.where(pair)), `${what} maps keys to a value (true: present, false: absent)`);
      return out;
    }
    for (const p of map.items as Pair[]) {
      const key = this.Y.isScalar(p.key) ? String((p.key as Scalar).value) : '';
      const v = this.Y.isScalar(p.value) ? (p.value as Scalar).value : undefined;
      if (!key || (typeof v !== 'string' && typeof v !== 'boolean' && typeof v !== 'number'))
        this.at(this.where(p.value as YamlNode, this.where(p)), `${what}.${key}: a string, or true (present) / false (absent)`);
      else out[key] = typeof v === 'number' ? String(v) : v;
    }
    return out;
  }

  /** A string (exact), or `{prefix|glob|regex|under: "…"}` (one of `allowed`). */
  private stringTest(pair: Pair, what: string, allowed: readonly string[]): StringTest | undefined {
    const node = pair.value as YamlNode | null;
    const at = this.where(node, this.where(pair));
    if (node && this.Y.isScalar(node) && typeof (node as Scalar).value === 'string') {
      const value = (node as Scalar).value as string;
      // A tool name is a glob unless it has no wildcard: `bash` is exact, `mcp__*` a glob.
      if (what.endsWith('match.tool') && /[*?]/.test(value)) return { kind: 'glob', value, re: globRegExp(value) };
      return { kind: 'exact', value };
    }
    if (!node || !this.Y.isMap(node) || (node as YAMLMap).items.length !== 1) {
      this.at(at, `${what} is a string, or one of {${allowed.join('|')}: "…"}`);
      return undefined;
    }
    const p = (node as YAMLMap).items[0] as Pair;
    const kind = this.Y.isScalar(p.key) ? String((p.key as Scalar).value) : '';
    const value = this.Y.isScalar(p.value) ? (p.value as Scalar).value : undefined;
    if (!allowed.includes(kind)) {
      this.at(this.where(p), `${what}: unknown test "${kind}" (use ${allowed.join(', ')})`);
      return undefined;
    }
    if (typeof value !== 'string' || value === '') {
      this.at(this.where(p.value as YamlNode, this.where(p)), `${what}.${kind} takes a non-empty string`);
      return undefined;
    }
    const vAt = this.where(p.value as YamlNode, this.where(p));
    switch (kind) {
      case 'prefix':
        return { kind, value };
      case 'glob':
        return { kind, value, re: globRegExp(value) };
      case 'under':
        if (!isAbsolute(value) || value.includes('\0')) {
          this.at(vAt, `${what}.under takes an absolute folder such as /srv (got "${value}")`);
          return undefined;
        }
        return { kind, value: folderOf(value) };
      default: {
        const risk = regexRisk(value);
        if (risk) {
          this.at(vAt, `${what}.regex refused: ${risk}`);
          return undefined;
        }
        return { kind: 'regex', value, re: new RegExp(value) };
      }
    }
  }

  private string(pair: Pair | undefined, what: string): string | undefined {
    if (!pair) return undefined;
    const v = this.Y.isScalar(pair.value) ? (pair.value as Scalar).value : undefined;
    if (typeof v === 'string' && v.trim() !== '') return v;
    this.at(this.where(pair.value as YamlNode, this.where(pair)), `${what} takes a non-empty string`);
    return undefined;
  }
}

/** A glob as an anchored regular expression: `*` any run of characters, `?` one; nothing else is special. */
export function globRegExp(glob: string): RegExp {
  let re = '';
  for (const c of glob) re += c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return new RegExp(`^${re}$`, 's');
}

/** A folder without its trailing slash, `..` and `.` resolved (`/` stays `/`). */
export function folderOf(path: string): string {
  const n = posix.normalize(path);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}
