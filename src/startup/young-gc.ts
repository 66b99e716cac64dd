import { applyHeavyRunFlags } from './v8-flags';

/** Bytes streamed between two young-generation collections. */
const RELIEF_BYTES = 512 * 1024;
let collectYoung: ((opts: { type: 'minor' }) => void) | null | undefined;

/**
 * Long streams (transfers, tails, `list --all`) allocate fast and keep almost nothing, yet V8 grows its young
 * generation under that load and frees dead off-heap chunks only at its next collection: tens of MB of peak RSS
 * that hold nothing (bench/run.mjs). A minor collection every 512 KiB streamed (well under 1 ms each) keeps the peak
 * flat. Without a usable `gc`, nothing changes.
 */
export class YoungGc {
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
      // `--expose-gc` is among a long run's flags; node:vm loads on the first collection only.
      applyHeavyRunFlags();
      const { runInNewContext } = process.getBuiltinModule('node:vm');
      // A fresh context gets `gc` without adding it to the CLI's own global object.
      collectYoung = runInNewContext('typeof gc === "function" ? gc : null') as typeof collectYoung;
    } catch {
      collectYoung = null;
    }
  }
  collectYoung?.({ type: 'minor' });
}
