import { Text } from 'ink';
import type { ViewState } from '../reducer';

/** The message being written: Enter sends it as `next_turn` or `steer` (Tab switches). */
export function Composer({ compose }: { compose: NonNullable<ViewState['compose']> }) {
  return (
    <Text>
      <Text color="green" bold>
        {compose.mode}›{' '}
      </Text>
      {compose.text}
      <Text inverse> </Text>
    </Text>
  );
}
