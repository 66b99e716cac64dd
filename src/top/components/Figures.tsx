import { figures } from '../../stats/report';
import { sessionText } from '../../stats/text';
import { selectedRow, type BoardState } from '../state';
import { Panel } from './Panel';

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
  return <Panel s={s} lines={lines} />;
}
