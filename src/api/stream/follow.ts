import type { Follow } from './types';

/** Placeholder until the SSE client lands. */
export const follow: Follow = () => {
  throw new Error('the SSE client is not built yet');
};
