import { Box, Text } from 'ink';
import { Fragment } from 'react';
import { footerKeys } from '../keys';
import { nextConfirmation, threadName, type ViewState } from '../reducer';
import { escapeLineControls } from '../../output/controls';
import { droppedText } from '../typeahead';

/**
 * The awaited confirmation, the outcome of the last action, and the keys that apply now (from the key table);
 * once the view has closed, how it ended instead of the keys.
 */
export function Footer({ s, keys = true }: { s: ViewState; keys?: boolean }) {
  const awaited = nextConfirmation(s);
  const more = s.confirmations.filter((c) => !c.answering).length - 1;
  const thread = threadName(s, awaited?.threadId);
  return (
    <Box flexDirection="column">
      {awaited ? (
        <Text color="yellow" wrap="truncate-end">
          awaiting confirmation: {thread ? `[${escapeLineControls(thread)}] ` : ''}
          {escapeLineControls(`${awaited.name} ${JSON.stringify(awaited.input ?? {})}`)}
          {more > 0 ? ` (+${more} more)` : ''}
        </Text>
      ) : null}
      {s.dropped ? <Text dimColor>{droppedText(s.dropped)}</Text> : null}
      {s.notice ? <Text color={s.notice.level === 'error' ? 'red' : 'blue'}>{escapeLineControls(s.notice.text)}</Text> : null}
      {s.ended ? (
        <Text dimColor>{s.ended}</Text>
      ) : keys ? (
        // Wrapped, never cut: on a narrow terminal every key that applies stays visible (q above all).
        <Text>
          {s.readonly ? <Text color="yellow">read-only </Text> : null}
          {footerKeys(s).map((k, i) => (
            <Fragment key={k.key}>
              {i > 0 ? <Text dimColor> · </Text> : null}
              <Text bold>{k.key}</Text> {escapeLineControls(k.help)}
            </Fragment>
          ))}
        </Text>
      ) : null}
    </Box>
  );
}
