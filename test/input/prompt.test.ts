import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { prompt } from '../../src/input/prompt';
import type { Io } from '../../src/runtime/io';
import { Capture } from '../helpers/cli';

/** A terminal's two ends: what is typed, and what the terminal shows. */
function terminal(): { io: Io; typed: PassThrough; shown: Capture } {
  const typed = new PassThrough();
  const shown = new Capture();
  shown.isTTY = true;
  const io = { stdin: typed, stdout: new Capture(), stderr: shown, env: {}, cwd: '/' } as unknown as Io;
  return { io, typed, shown };
}

describe('the terminal prompt', () => {
  it('a hidden prompt shows its question and never what is typed, and answers what was typed', async () => {
    const { io, typed, shown } = terminal();
    const answer = prompt(io, 'API key: ', true);
    typed.write('sk-very-secret-key\r');
    expect(await answer).toBe('sk-very-secret-key');
    expect(shown.text).toContain('API key: ');
    expect(shown.text).not.toContain('sk-very');
    expect(shown.text).not.toContain('secret');
  });

  it('a visible prompt echoes what is typed (what the hidden one must not)', async () => {
    const { io, typed, shown } = terminal();
    const answer = prompt(io, 'Profile: ', false);
    typed.write('staging\r');
    expect(await answer).toBe('staging');
    expect(shown.text).toContain('staging');
  });
});
