import { expect } from 'vitest';
import { exitCodeFor, UsageError } from '../../src/runtime/errors';

/** What a parse step refuses: a UsageError (exit 2) whose message is one line; returns that line. */
export function refusal(parse: () => unknown): string {
  let thrown: unknown;
  try {
    parse();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, 'the parse step accepted it').toBeInstanceOf(UsageError);
  expect(exitCodeFor(thrown)).toBe(2);
  const message = (thrown as Error).message;
  expect(message).not.toContain('\n');
  return message;
}
