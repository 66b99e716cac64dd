import { describe, expect, it } from 'vitest';
import { countKeys, dropTypeahead, droppedText } from '../../src/live/typeahead';
import { FakeTtyIn } from './tty';

describe('keys typed before a view opens', () => {
  it('are read from the terminal in raw mode and dropped, and counted', async () => {
    const stdin = new FakeTtyIn();
    stdin.typeAhead('i\n');
    stdin.typeAhead('mhello\n');
    expect(await dropTypeahead(stdin)).toBe(9);
    expect(stdin.rawModes).toEqual([true]);
    // Nothing is left for the view to read as keys.
    expect(stdin.read()).toBeNull();
  });

  it('keys that arrive while the terminal is being read are dropped too', async () => {
    const stdin = new FakeTtyIn();
    const dropping = dropTypeahead(stdin);
    stdin.press('q');
    expect(await dropping).toBe(1);
    expect(stdin.read()).toBeNull();
  });

  it('an escape sequence is one key; nothing typed is zero', async () => {
    expect(countKeys('\u001b[A\u001b[1;5Cx\u001bOPé😀')).toBe(6);
    expect(await dropTypeahead(new FakeTtyIn())).toBe(0);
    expect(droppedText(1)).toBe('dropped 1 key typed before the view opened');
  });

  it('a stream that is not a terminal is left alone', async () => {
    const stdin = Object.assign(new FakeTtyIn(), { isTTY: false });
    stdin.typeAhead('i');
    expect(await dropTypeahead(stdin)).toBe(0);
    expect(stdin.read()).toBe('i');
  });
});
