import { Text } from 'ink';
import { figures } from '../../stats/report';
import { sessionText } from '../../stats/text';
import { pageSize, selectedRow, type BoardState } from '../state';

/** The selected session's figures (as `svc sessions stats` prints them), from what the board streamed, in place of the table. */
export function Figures({ s }: { s: BoardState }) {
  const row = selectedRow(s, 'sessions');
  const tally = row && s.figures[row.id];
  const lines = !row
    ? ['  no session selected']
    : !tally
      ? [`  ${row.id}: no events streamed yet (the board streams running sessions on screen)`, '  for its whole history: svc sessions stats ' + row.id]
      : sessionText({ session_id: row.id, since: 'the board opened its stream' }, figures(tally.result()), { width: s.columns, header: (h) => h }, true)
          .trimEnd()
          .split('\n');
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
