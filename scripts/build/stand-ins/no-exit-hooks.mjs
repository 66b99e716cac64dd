// when-exit in svc's build (scripts/bundle.mjs STAND_INS): registers nothing, so no signal of svc's is hooked.
export default function whenExit() {
  return () => {};
}
