import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/runtime/errors';
import { utf8Text } from '../../src/input/utf8';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('utf8Text', () => {
  it('returns valid UTF-8 as it is, a U+FFFD written in the file included', () => {
    expect(utf8Text(Buffer.from('a: café\nb: \uFFFD\n'), 'x.yaml')).toBe('a: café\nb: \uFFFD\n');
  });

  it.each([
    ['a Latin-1 byte', Buffer.from([0x61, 0x0a, 0x62, 0xe9, 0x0a]), 'x.yaml line 2: not UTF-8 (byte 0xe9 at offset 3)'],
    ['a truncated sequence at the end', Buffer.from([0x61, 0xe2, 0x82]), 'x.yaml line 1: not UTF-8 (byte 0xe2 at offset 1)'],
    ['an overlong encoding', Buffer.from([0x0a, 0x0a, 0xc0, 0xaf]), 'x.yaml line 3: not UTF-8 (byte 0xc0 at offset 2)'],
  ])('refuses %s, naming the line', (_what, bytes, message) => {
    expect(() => utf8Text(bytes, 'x.yaml')).toThrow(new UsageError(message));
  });
});

describe('documents that are not UTF-8', () => {
  it('svc agents apply FILE with a byte that is not UTF-8 is exit 2 naming file and line, with nothing sent', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'agent.yaml'), Buffer.concat([Buffer.from('name: latin1-agent\nmodel: m\nsystem: caf'), Buffer.from([0xe9, 0x0a])]));
    const before = await requestCount(t.emu);
    const r = await svc(['agents', 'apply', 'agent.yaml'], { cwd: dir, env: emuEnv(t.emu) });
    expect(r.stderr).toBe('error: agent.yaml line 3: not UTF-8 (byte 0xe9 at offset 39)\n');
    expect(r.code).toBe(2);
    expect(await requestCount(t.emu)).toBe(before);
  });
});
