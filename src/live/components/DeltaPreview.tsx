import { Box, Text } from 'ink';
import { passesFilter, type Preview } from '../reducer';
import { escapeLineControls } from '../../output/controls';

/** Characters of a preview drawn: its tail, so the live area stays a few lines high however long the reply. */
export const PREVIEW_SHOWN = 240;

/** What a preview broken by a reconnect says in place of the fragments it lost. */
export const LOST_NOTE = '[reconnected: the start of this preview was lost; the complete event will replace it] …';

/** What a preview says after what streamed when the stream closed before its complete event (the view was left). */
export const PARTIAL_NOTE = ' [partial: the stream closed here]';

const tail = (p: Preview) => {
  const shown = p.cut || p.text.length > PREVIEW_SHOWN ? `…${p.text.slice(-PREVIEW_SHOWN)}` : p.text;
  return (p.lost && !p.cut ? LOST_NOTE : '') + escapeLineControls(shown.replace(/\s*\n\s*/g, ' ')) + (p.partial ? PARTIAL_NOTE : '');
};

/** The live delta previews, replaced by the complete events as they arrive. */
export function DeltaPreview({
  previews,
  filter,
  nameOf,
}: {
  previews: readonly Preview[];
  filter: string;
  nameOf: (id: string | undefined) => string | undefined;
}) {
  const shown = previews.filter((p) => passesFilter(filter, p.threadId));
  if (!shown.length) return null;
  return (
    <Box flexDirection="column">
      {shown.map((p) => {
        const name = nameOf(p.threadId);
        const tag = name ? <Text color="cyan">[{escapeLineControls(name)}] </Text> : null;
        return (
          <Text key={`${p.kind}|${p.threadId ?? ''}|${p.toolUseId ?? ''}`} dimColor={p.kind === 'thinking'} italic>
            {tag}
            {p.kind === 'tool_use' ? <Text color="yellow">tool {escapeLineControls(p.name ?? '')} </Text> : null}
            {tail(p)}
            {p.partial ? null : <Text dimColor>▍</Text>}
          </Text>
        );
      })}
    </Box>
  );
}
