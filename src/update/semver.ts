/**
 * Semantic Versioning 2.0.0 precedence (semver.org, §11), all the update check needs of it: x.y.z compared as numbers,
 * a pre-release below its release (1.0.0-beta.1 < 1.0.0), pre-release identifiers one by one (numeric ones as numbers
 * and below alphanumeric ones, alphanumeric ones in ASCII order, a shorter list below a longer one it begins), build
 * metadata (`+…`) ignored.
 */
const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

interface Parsed {
  release: number[];
  pre: string[];
}

export function parseVersion(v: string): Parsed | undefined {
  const m = VERSION.exec(v.trim().replace(/^v/, ''));
  return m ? { release: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] } : undefined;
}

const numeric = (id: string): boolean => /^\d+$/.test(id);

function compareIdentifiers(a: string, b: string): number {
  if (numeric(a) && numeric(b)) return Math.sign(Number(a) - Number(b));
  if (numeric(a) !== numeric(b)) return numeric(a) ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative when `a` precedes `b`, positive when it follows, 0 when equal; undefined when either is no version. */
export function compareVersions(a: string, b: string): number | undefined {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  if (!x || !y) return undefined;
  for (let i = 0; i < 3; i++) if (x.release[i] !== y.release[i]) return Math.sign(x.release[i] - y.release[i]);
  // A release follows its own pre-releases.
  if (!x.pre.length || !y.pre.length) return Math.sign(y.pre.length - x.pre.length);
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const c = compareIdentifiers(x.pre[i], y.pre[i]);
    if (c) return c;
  }
  return Math.sign(x.pre.length - y.pre.length);
}
