// env-paths in svc's build (scripts/bundle.mjs ALIASES): conf picks a folder only without `cwd`, and svc always gives one.
export default function envPaths() {
  throw new Error("svc's build leaves out env-paths: svc always gives conf the config folder (cwd)");
}
