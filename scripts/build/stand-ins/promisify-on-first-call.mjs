// node:util for stubborn-fs in svc's build (scripts/bundle.mjs STAND_INS): it promisifies 19 fs functions as it loads,
// and svc's config writes are synchronous: each is promisified on its first call. Another name imported from
// node:util fails the build (esbuild: no matching export).
import { promisify as promisifyNow } from 'node:util';

export function promisify(fn) {
  let made;
  return (...args) => (made ??= promisifyNow(fn))(...args);
}
