import { Text } from 'ink';
import { pageSize, type BoardState } from '../state';

/** Lines shown in place of the table (help, figures): cut to the table's height and padded to it, so the footer stays put. */
export function Panel({ s, lines }: { s: BoardState; lines: string[] }) {
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
