/** The pass-through floor plus what a naive reader does per event: JSON.parse, a Set of ids for dedupe, JSON.stringify. */
import { floor } from './lib/floor.mjs';

const seen = new Set();
await floor((m) => {
  const e = JSON.parse(m.data);
  if (seen.has(e.id)) return undefined;
  seen.add(e.id);
  return JSON.stringify(e);
});
