import { HELP } from '../keys';
import type { BoardState } from '../state';
import { Panel } from './Panel';

/** Every key of the board, in place of the table. */
export function Help({ s }: { s: BoardState }) {
  const lines = [...HELP.map((h) => `  ${h.key.padEnd(9)} ${h.help}`), '', s.readonly ? '  --readonly: the write keys are off' : ''];
  return <Panel s={s} lines={lines} />;
}
