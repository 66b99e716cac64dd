import { Text } from 'ink';
import { HELP } from '../keys';
import { pageSize, type BoardState } from '../state';

/** Every key of the board, in place of the table. */
export function Help({ s }: { s: BoardState }) {
  const lines = [...HELP.map((h) => `  ${h.key.padEnd(9)} ${h.help}`), '', s.readonly ? '  --readonly: the write keys are off' : ''];
  const page = pageSize(s) + 1;
  return (
    <>
      {lines.slice(0, page).map((l, i) => (
        <Text key={i} wrap="truncate-end">
          {l || ' '}
        </Text>
      ))}
      {Array.from({ length: Math.max(0, page - lines.length) }, (_, i) => (
        <Text key={`b${i}`}> </Text>
      ))}
    </>
  );
}
