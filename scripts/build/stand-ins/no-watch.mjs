// debounce-fn in svc's build (scripts/bundle.mjs ALIASES): conf debounces only for `watch`, which svc does not use.
export default function debounceFn() {
  throw new Error("svc's build leaves out debounce-fn: svc does not ask conf to watch the file");
}
