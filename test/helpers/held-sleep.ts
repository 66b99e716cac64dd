/**
 * A sleep the test ends by hand: each call waits until `wakeAll`, so a loop's rounds are stepped and counted, never
 * timed. `asked` is every wait asked for, in order.
 */
export function heldSleep() {
  const waiting: Array<() => void> = [];
  const asked: number[] = [];
  return {
    asked,
    sleep: (ms: number): Promise<void> =>
      new Promise<void>((wake) => {
        asked.push(ms);
        waiting.push(wake);
      }),
    /** Ends every sleep waiting now. */
    wakeAll: (): void => {
      for (const wake of waiting.splice(0)) wake();
    },
  };
}
