import { Text } from 'ink';
import { Fragment } from 'react';
import { escapeLineControls } from '../../output/controls';
import { footerKeys } from '../keys';
import type { BoardState } from '../state';

/** One line for the question asked or the outcome of the last write, then the keys that apply now (from the key table). */
export function Footer({ s, keys = true }: { s: BoardState; keys?: boolean }) {
  return (
    <>
      {s.asking ? (
        <Text color="yellow" wrap="truncate-end">
          archive {s.asking.ids.length} session{s.asking.ids.length === 1 ? '' : 's'}
          {s.asking.ids.length ? ` (${s.asking.ids.slice(0, 3).join(', ')}${s.asking.ids.length > 3 ? ', …' : ''})` : ''}? y archives, n cancels
        </Text>
      ) : s.notice ? (
        <Text color={s.notice.level === 'error' ? 'red' : 'blue'} wrap="truncate-end">
          {escapeLineControls(s.notice.text)}
        </Text>
      ) : (
        <Text> </Text>
      )}
      {keys ? (
        <Text>
          {footerKeys(s).map((k, i) => (
            <Fragment key={k.key + k.help}>
              {i > 0 ? <Text dimColor> · </Text> : null}
              <Text bold>{k.key}</Text> {escapeLineControls(k.help)}
            </Fragment>
          ))}
        </Text>
      ) : null}
    </>
  );
}
