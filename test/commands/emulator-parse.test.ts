import { describe, expect, it } from 'vitest';
import { parseEmulator } from '../../src/commands/emulator/parse';
import { refusal } from './usage';

describe('parseEmulator', () => {
  it('fills in the defaults: 127.0.0.1:4010, no faults, no state file, the request log on standard error', () => {
    expect(parseEmulator([], {})).toEqual({
      port: 4010,
      host: '127.0.0.1',
      faults: undefined,
      statePath: undefined,
      heartbeatMs: undefined,
      log: undefined,
      quiet: false,
      webhookUrl: undefined,
      exportsFile: undefined,
    });
  });

  it('keeps every flag: --port 0 picks a free port, paths stay as given (resolved when it runs)', () => {
    const o = parseEmulator([], {
      port: '0',
      host: '0.0.0.0',
      faults: 'rate_limit_every=5,retry_after=1,lose_worker',
      state: 'emu.json',
      heartbeatMs: '250',
      log: 'emulator.log',
      webhookUrl: 'http://127.0.0.1:9000/hooks',
      exportsFile: 'emulator.env',
    });
    expect(o).toEqual({
      port: 0,
      host: '0.0.0.0',
      faults: { rate_limit_every: 5, retry_after: 1, lose_worker: '*' },
      statePath: 'emu.json',
      heartbeatMs: 250,
      log: 'emulator.log',
      quiet: false,
      webhookUrl: 'http://127.0.0.1:9000/hooks',
      exportsFile: 'emulator.env',
    });
  });

  it('a --port that is not a whole number from 0 to 65535 is exit 2', () => {
    expect(refusal(() => parseEmulator([], { port: '65536' }))).toBe('--port must be between 0 and 65535 (got 65536)');
    expect(refusal(() => parseEmulator([], { port: 'http' }))).toBe('--port takes a whole number (got "http")');
  });

  it('an unknown fault or a fault without a number is exit 2 naming --faults', () => {
    expect(refusal(() => parseEmulator([], { faults: 'slow=1' }))).toMatch(/^--faults: unknown fault "slow"; known: rate_limit_every, /);
    expect(refusal(() => parseEmulator([], { faults: 'delay_ms=-1' }))).toBe('--faults: fault delay_ms takes a number');
  });

  it('a --heartbeat-ms below 1 or not a number is exit 2', () => {
    expect(refusal(() => parseEmulator([], { heartbeatMs: '0' }))).toMatch(/^--heartbeat-ms must be between 1 and/);
    expect(refusal(() => parseEmulator([], { heartbeatMs: '1s' }))).toBe('--heartbeat-ms takes a whole number (got "1s")');
  });

  it('--log with --quiet is exit 2, whether commander gave --quiet to the verb or to the program', () => {
    const both = '--log and --quiet cannot be used together: --log FILE keeps the request log, --quiet drops it';
    expect(refusal(() => parseEmulator([], { log: 'x.log', quiet: true }))).toBe(both);
    expect(refusal(() => parseEmulator([], { log: 'x.log' }, true))).toBe(both);
    expect(parseEmulator([], {}, true)).toMatchObject({ quiet: true, log: undefined });
  });

  it('a --webhook-url that is not an http or https URL is exit 2: every webhook would fail', () => {
    for (const url of ['hooks.example', 'ftp://127.0.0.1/hooks', 'http//x'])
      expect(refusal(() => parseEmulator([], { webhookUrl: url }))).toBe(`--webhook-url takes an http:// or https:// URL (got "${url}")`);
    expect(parseEmulator([], { webhookUrl: 'https://hooks.example/in' })).toMatchObject({ webhookUrl: 'https://hooks.example/in' });
  });
});
