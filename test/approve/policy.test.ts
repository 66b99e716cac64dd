import { describe, expect, it } from 'vitest';
import { decide, isUnder, type Call } from '../../src/approve/match';
import { parsePolicy, PolicyError } from '../../src/approve/policy';
import { regexRisk } from '../../src/approve/safe-regex';

const POLICY = `rules:
  - name: never delete
    match: {tool: bash, input: {command: {regex: "\\\\brm\\\\s"}}}
    decision: deny
    message: "Deleting files is not allowed here; ask a human."
  - name: read-only shell
    match:
      tool: bash
      input:
        command: {prefix: "ls "}
      agent: reviewer
      labels: {team: infra}
      metadata: {ticket: true}
      environment: env_1
      thread: main
    decision: allow
  - name: reads under srv
    match: {tool: read, input: {path: {under: /srv}}}
    decision: allow
  - name: mcp tools to a human
    match: {tool: "mcp__*"}
    decision: ask
  - name: not mine
    match: {tool: deploy, input: {target: {glob: "staging-*"}}}
    decision: ignore
`;

const call = (over: Partial<Call> = {}): Call => ({
  tool: 'bash',
  input: { command: 'ls -la' },
  agent: { id: 'agent_1', name: 'reviewer', metadata: { team: 'infra' } },
  metadata: { ticket: 'T-1' },
  environment: { id: 'env_1', name: 'prod' },
  thread: 'main',
  ...over,
});

async function issues(text: string): Promise<string[]> {
  try {
    await parsePolicy(text, 'p.yaml');
  } catch (e) {
    if (e instanceof PolicyError) return e.message.split('\n');
    throw e;
  }
  return [];
}

describe('approve policy', () => {
  it('first match wins over every field of the rule language', async () => {
    const p = await parsePolicy(POLICY, 'p.yaml');
    expect(p.rules.map((r) => r.name)).toEqual(['never delete', 'read-only shell', 'reads under srv', 'mcp tools to a human', 'not mine']);
    expect(decide(p, call())).toEqual({ kind: 'decided', rule: 'read-only shell', decision: 'allow' });
    // The deny comes first, even for a command that starts with "ls ".
    expect(decide(p, call({ input: { command: 'ls x && rm -rf /' } }))).toEqual({
      kind: 'decided',
      rule: 'never delete',
      decision: 'deny',
      message: 'Deleting files is not allowed here; ask a human.',
    });
    // Every condition of the allow must hold: a child thread, another agent, a label, metadata or environment missing.
    for (const c of [
      call({ thread: 'child' }),
      call({ agent: { id: 'agent_2', name: 'triager', metadata: { team: 'infra' } } }),
      call({ agent: { id: 'agent_1', name: 'reviewer', metadata: { team: 'web' } } }),
      call({ metadata: {} }),
      call({ environment: { id: 'env_2' } }),
    ])
      expect(decide(p, c)).toEqual({ kind: 'none' });
    // The agent by ID as well as by name.
    expect(decide({ ...p, rules: [{ ...p.rules[1], match: { ...p.rules[1].match, agent: 'agent_1' } }] }, call()).kind).toBe('decided');
    expect(decide(p, call({ tool: 'read', input: { path: '/srv/app/x.txt' } }))).toMatchObject({ rule: 'reads under srv', decision: 'allow' });
    expect(decide(p, call({ tool: 'read', input: { path: '/srv/../etc/passwd' } }))).toEqual({ kind: 'none' });
    expect(decide(p, call({ tool: 'mcp__github__merge', input: {} }))).toMatchObject({ rule: 'mcp tools to a human', decision: 'ask' });
    expect(decide(p, call({ tool: 'deploy', input: { target: 'staging-2' } }))).toMatchObject({ decision: 'ignore' });
    // No rule, no decision: never an allow.
    expect(decide(p, call({ tool: 'write', input: { path: '/srv/x' } }))).toEqual({ kind: 'none' });
  });

  it('a prefix or glob never matches a value with a line break; a regex on a value too long leaves the call undecided', async () => {
    const p = await parsePolicy('rules:\n  - {name: ls, match: {tool: bash, input: {command: {prefix: "ls "}}}, decision: allow}\n', 'p.yaml');
    expect(decide(p, call({ input: { command: 'ls .\nrm -rf /' } }))).toEqual({ kind: 'none' });
    const r = await parsePolicy('rules:\n  - {name: rx, match: {input: {command: {regex: "^ls"}}}, decision: allow}\n', 'p.yaml');
    expect(decide(r, call({ input: { command: 'ls ' + 'a'.repeat(10_000) } }))).toMatchObject({ kind: 'none', why: expect.stringContaining('longer than') });
  });

  it('paths under a folder resolve . and ..', () => {
    expect(isUnder('/srv/a/b', '/srv')).toBe(true);
    expect(isUnder('/srv', '/srv')).toBe(true);
    expect(isUnder('/srvx/a', '/srv')).toBe(false);
    expect(isUnder('/srv/../etc', '/srv')).toBe(false);
    expect(isUnder('srv/a', '/srv')).toBe(false);
  });

  it('lint: every problem with its line and column; unknown keys are errors', async () => {
    const text = `rules:
  - name: one
    match: {tool: bash, inptu: {}}
    decision: allow
  - name: two
    match: {tool: bash}
    decision: maybe
  - name: three
    match: {input: {command: {regex: "(a+)+$"}}}
    decision: deny
  - match: {}
    decision: allow
    message: hi
extra: 1
`;
    expect(await issues(text)).toEqual([
      'p.yaml:3:25: rule "one" match: unknown key "inptu" (known: tool, input, agent, labels, metadata, environment, thread)',
      'p.yaml:7:15: rule "two": unknown decision "maybe" (use allow, deny, ask, ignore)',
      'p.yaml:9:38: rule "three" match.input.command.regex refused: a repeated group holds a quantifier (as in (a+)+): it can run away; repeat a character class instead',
      'p.yaml:11:5: a rule needs a "name": the audit log and the metrics show it',
      'p.yaml:13:5: the rule on line 11: "message" is what a deny tells the agent; a allow sends none',
      'p.yaml:14:1: the policy: unknown key "extra" (known: rules)',
    ]);
    expect((await issues('rules: [\n'))[0]).toMatch(/^p\.yaml:2:1: /);
    expect(await issues('rules:\n  - {name: a, match: {}, decision: allow}\n  - {name: a, match: {}, decision: deny}\n')).toEqual([
      'p.yaml:3:5: rule "a" is already named on line 2: names are what the audit log shows',
    ]);
  });

  it('runaway regular expressions are refused before use', () => {
    expect(regexRisk('\\brm\\s')).toBeUndefined();
    expect(regexRisk('^git (status|log|diff)\\b')).toBeUndefined();
    expect(regexRisk('^(?:ls|cat) [^;&|]*$')).toBeUndefined();
    expect(regexRisk('(a+)+$')).toMatch(/repeated group holds a quantifier/);
    expect(regexRisk('(\\w+\\s?)*$')).toMatch(/repeated group holds a quantifier/);
    expect(regexRisk('(a|ab)*c')).toMatch(/repeated group holds an alternation/);
    expect(regexRisk('(x{2,})+')).toMatch(/quantifier/);
    expect(regexRisk('(a)\\1')).toMatch(/backreference/);
    expect(regexRisk('(?<q>a)\\k<q>')).toMatch(/backreference/);
    expect(regexRisk('a.*b.*c.*d')).toMatch(/more than 2 unbounded/);
    expect(regexRisk('[')).toMatch(/not a valid regular expression/);
    // A quantifier inside a character class or escaped is no quantifier.
    expect(regexRisk('([+*]a)+')).toBeUndefined();
    expect(regexRisk('(\\+a)+')).toBeUndefined();
  });
});

describe('a policy naming __proto__ or constructor', () => {
  it('keeps the condition: a rule whose labels, metadata or input name __proto__ does not match a call without it', async () => {
    for (const cond of ['labels: {__proto__: "x"}', 'metadata: {constructor: "x"}', 'input: {__proto__: {prefix: "ls"}}']) {
      const p = await parsePolicy(`rules:\n  - name: narrow\n    match: {tool: bash, ${cond}}\n    decision: allow\n`, 'p.yaml');
      expect(decide(p, call()), cond).toEqual({ kind: 'none' });
    }
  });
});
