import { Text } from 'ink';
import { cell, idWidth, layout } from '../columns';
import { pageSize, windowOf, type BoardState } from '../state';

/**
 * The column titles and the window of rows that holds the selection, padded to the page so the footer stays put.
 * A row is a few text nodes (a run of cells per colour), not one per cell: a frame stays cheap to lay out.
 */
export function Table({ s, now }: { s: BoardState; now: number }) {
  const { rows, first, selected } = windowOf(s);
  const cols = layout(s.view, s.columns, idWidth(rows.map((r) => r.id)));
  const blank = Math.max(0, pageSize(s) - Math.max(1, rows.length));
  return (
    <>
      <Text bold dimColor wrap="truncate-end">
        {'  ' + cols.map((c) => cell(c.column.title, c.width)).join(' ')}
      </Text>
      {rows.map((r, i) => {
        const isSelected = first + i === selected;
        // Cells side by side, cut where the colour changes.
        const runs: Array<{ text: string; color?: string }> = [{ text: s.marks.has(r.id) ? '* ' : '  ', color: 'magenta' }];
        cols.forEach(({ column: c, width }, j) => {
          const text = cell(c.text(r, s, now), width) + (j < cols.length - 1 ? ' ' : '');
          const color = isSelected ? undefined : c.color?.(r, s, now);
          const last = runs[runs.length - 1];
          if (last.color === color) last.text += text;
          else runs.push({ text, color });
        });
        return (
          <Text key={r.id} wrap="truncate-end" inverse={isSelected}>
            {runs.map((run, k) =>
              run.color ? (
                <Text key={k} color={run.color}>
                  {run.text}
                </Text>
              ) : (
                run.text
              ),
            )}
          </Text>
        );
      })}
      {rows.length === 0 ? <Text dimColor>{emptyText(s)}</Text> : null}
      {Array.from({ length: blank }, (_, i) => (
        <Text key={`blank-${i}`}> </Text>
      ))}
    </>
  );
}

function emptyText(s: BoardState): string {
  if (s.view === 'work' && !s.environment) return '  no environment: start svc top with --environment ENV';
  if (!s.loaded[s.view]) return '  loading…';
  if (s.filter[s.view]) return '  nothing matches the filter (Esc clears it)';
  return '  nothing to show';
}
