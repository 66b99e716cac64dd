import { statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CACHE_FILE_NAME } from '../../src/completion/cache';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator, requestCount } from '../helpers/emulator';

const fast = useEmulator();
/** How long the slow service takes to answer. */
const SLOW_MS = 2000;
const slow = useEmulator({ faults: { delay_ms: SLOW_MS } });
/** Holds only the agents of one test. */
const own = useEmulator();

const requests = requestCount;

describe('svc __complete', () => {
  // The built CLI loads the HTTP client in milliseconds; under vitest the first import is transformed and slow.
  beforeAll(() => import('../../src/api/client'));

  it('completes agent IDs newest first, each with its name', async () => {
    const a = (await call(fast.emu, 'POST', '/v1/agents', { body: { name: 'first agent', model: 'm' } })).body;
    const b = (await call(fast.emu, 'POST', '/v1/agents', { body: { name: 'second agent', model: 'm' } })).body;
    const r = await svc(['__complete', '--', 'agents', 'get', ''], { env: emuEnv(fast.emu) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.indexOf(`${b.id}\tsecond agent`)).toBeLessThan(lines.indexOf(`${a.id}\tfirst agent`));
    expect(lines.indexOf(`${b.id}\tsecond agent`)).toBeGreaterThanOrEqual(0);
  });

  it('shows a name’s control characters escaped (the shell lists it as is) and its line breaks as spaces, one candidate per line', async () => {
    const a = (await call(fast.emu, 'POST', '/v1/agents', { body: { name: 'evil\u001b]0;x\u0007\tname\nagent_fake', model: 'm' } })).body;
    const r = await svc(['__complete', '--', 'agents', 'get', a.id], { env: emuEnv(fast.emu) });
    expect(r.stdout).toBe(`${a.id}\tevil\\x1b]0;x\\x07 name agent_fake\n`);
  });

  it('offers the names of a resource with names after all its IDs, each labelled by its ID; a name two share is left out', async () => {
    const a = (await call(own.emu, 'POST', '/v1/agents', { body: { name: 'reviewer', model: 'm' } })).body;
    const b = (await call(own.emu, 'POST', '/v1/agents', { body: { name: 'twin', model: 'm' } })).body;
    const c = (await call(own.emu, 'POST', '/v1/agents', { body: { name: 'twin', model: 'm' } })).body;
    const r = await svc(['__complete', '--', 'agents', 'get', ''], { env: emuEnv(own.emu) });
    expect(r.stdout).toBe(`${c.id}\ttwin\n${b.id}\ttwin\n${a.id}\treviewer\nreviewer\t${a.id}\n`);
    const named = await svc(['__complete', '--', 'sessions', 'create', '--agent', 'rev'], { env: emuEnv(own.emu) });
    expect(named.stdout).toBe(`reviewer\t${a.id}\n`);
  });

  it('offers no names for a resource without them (sessions)', async () => {
    const agent = (await call(fast.emu, 'POST', '/v1/agents', { body: { name: 'for a session', model: 'm' } })).body;
    const s = (await call(fast.emu, 'POST', '/v1/sessions', { body: { agent_id: agent.id, title: 'titled' } })).body;
    const r = await svc(['__complete', '--', 'sessions', 'get', ''], { env: emuEnv(fast.emu) });
    expect(r.stdout).toContain(`${s.id}\ttitled\n`);
    expect(r.stdout).not.toMatch(/^titled\t/m);
  });

  it('offers names from the same one request as the IDs, and from the cache after it', async () => {
    const env = emuEnv(fast.emu, { SVC_CONFIG_DIR: tempConfigDir() });
    const before = await requests(fast.emu);
    const cold = await svc(['__complete', '--', 'agents', 'get', 'for'], { env });
    expect(await requests(fast.emu)).toBe(before + 1);
    const warm = await svc(['__complete', '--', 'agents', 'get', 'for a'], { env });
    expect(await requests(fast.emu)).toBe(before + 1);
    expect(cold.stdout).toMatch(/^for a session\tagent_/);
    expect(warm.stdout).toBe(cold.stdout);
  });

  it('keeps only the IDs that start with the word being completed', async () => {
    const r = await svc(['__complete', '--', 'agents', 'delete', 'nope'], { env: emuEnv(fast.emu) });
    expect(r.stdout).toBe('');
  });

  it('answers a second time from the cache, without a request, and keeps the cache private', async () => {
    const env = emuEnv(fast.emu, { SVC_CONFIG_DIR: tempConfigDir() });
    const cold = await svc(['__complete', '--', 'agents', 'get', ''], { env });
    const before = await requests(fast.emu);
    const warm = await svc(['__complete', '--', 'agents', 'archive', ''], { env });
    expect(cold.stdout).toMatch(/^agent_/);
    expect(await requests(fast.emu)).toBe(before);
    expect(warm.stdout).toBe(cold.stdout);
    expect(statSync(join(env.SVC_CONFIG_DIR!, CACHE_FILE_NAME)).mode & 0o777).toBe(0o600);
  });

  it('with a cold cache and a service that takes 2 s, answers nothing before the service does', async () => {
    const started = performance.now();
    const r = await svc(['__complete', '--', 'agents', 'get', ''], { env: emuEnv(slow.emu) });
    // Ordered against the service's own delay, not a budget: waiting for the answer would take 2 s.
    expect(performance.now() - started).toBeLessThan(SLOW_MS);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('without a credential or with a broken config, answers nothing and says nothing', async () => {
    const r = await svc(['__complete', '--', 'agents', 'get', ''], { env: { SVC_BASE_URL: fast.emu.url } });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('completes a positional argument from its choices without the service', async () => {
    const r = await svc(['__complete', '--', 'completion', 'z'], { env: {} });
    expect(r.stdout).toBe('zsh\t\n');
  });

  it('completes an option value by its placeholder name and honours --profile style globals', async () => {
    const r = await svc(['__complete', '--', '--base-url', fast.emu.url, 'agents', 'get', ''], { env: { SVC_API_KEY: fast.emu.apiKey } });
    expect(r.stdout).toMatch(/^agent_/);
  });
});
