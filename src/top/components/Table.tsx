import { Text } from 'ink';
import { cell, layout } from '../columns';
import { pageSize, windowOf, type BoardState } from '../state';

/** The column titles and the window of rows that holds the selection, padded to the page so the footer stays put. */
export function Table({ s, now }: { s: BoardState; now: number }) {
  const cols = layout(s.view, s.columns);
  const { rows, first, selected } = windowOf(s);
  const blank = Math.max(0, pageSize(s) - rows.length);
  return (
    <>
      <Text bold dimColor wrap="truncate-end">
        {'  ' + cols.map((c) => cell(c.column.title, c.width)).join(' ')}
      </Text>
      {rows.map((r, i) => {
        const isSelected = first + i === selected;
        return (
          <Text key={r.id} wrap="truncate-end" inverse={isSelected}>
            <Text color="magenta">{s.marks.has(r.id) ? '* ' : '  '}</Text>
            {cols.map(({ column: c, width }, j) => (
              <Text key={c.title} color={isSelected ? undefined : c.color?.(r, s, now)}>
                {cell(c.text(r, s, now), width) + (j < cols.length - 1 ? ' ' : '')}
              </Text>
            ))}
          </Text>
        );
      })}
      {rows.length === 0 ? <Text dimColor>{emptyText(s)}</Text> : null}
      {Array.from({ length: Math.max(0, blank - (rows.length === 0 ? 1 : 0)) }, (_, i) => (
        <Text key={`blank-${i}`}> </Text>
      ))}
    </>
  );
}

function emptyText(s: BoardState): string {
  if (!s.loaded[s.view]) return s.view === 'work' && !s.environment ? '  no environment: start svc top with --environment ENV' : '  loading…';
  if (s.filter[s.view]) return '  nothing matches the filter (Esc clears it)';
  return s.view === 'work' && !s.environment ? '  no environment: start svc top with --environment ENV' : '  nothing to show';
}
