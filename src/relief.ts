import { createRequire } from 'node:module';

// Loaded on the first collection only: the output writer, and so this file, is on every command's start-up path.
const load = createRequire(import.meta.url);

/** Bytes streamed between two young-generation collections. */
const RELIEF_BYTES = 512 * 1024;
let collectYoung: ((opts: { type: 'minor' }) => void) | null | undefined;

/**
 * Long streams (transfers, tails, `list --all`) allocate fast and keep almost nothing, yet V8 grows its young
 * generation under that load and frees dead off-heap chunks only at its next collection: tens of MB of peak RSS
 * that hold nothing (bench/run.mjs). A minor collection every 512 KiB streamed (well under 1 ms each) keeps the peak
 * flat. Without a usable `gc`, nothing changes.
 */
export class Relief {
  private since = 0;

  bytes(n: number): void {
    this.since += n;
    if (this.since < RELIEF_BYTES) return;
    this.since = 0;
    collect();
  }
}

function collect(): void {
  if (collectYoung === undefined) {
    try {
      const { setFlagsFromString } = load('node:v8') as typeof import('node:v8');
      const { runInNewContext } = load('node:vm') as typeof import('node:vm');
      setFlagsFromString('--expose-gc');
      // A fresh context gets `gc` without adding it to the CLI's own global object.
      collectYoung = runInNewContext('typeof gc === "function" ? gc : null') as typeof collectYoung;
    } catch {
      collectYoung = null;
    }
  }
  collectYoung?.({ type: 'minor' });
}
