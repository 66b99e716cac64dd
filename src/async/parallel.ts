/** Runs `f` over `items` with at most `n` calls in flight, each worker taking the next item as it finishes one. */
export async function inParallel<T>(items: readonly T[], n: number, f: (x: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await f(items[i], i);
      }
    }),
  );
}
