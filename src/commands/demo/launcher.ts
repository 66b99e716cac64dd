/** How this user starts svc, so the demo's closing hint runs as printed (before `npm link` too). */
import { realpathSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, relative } from 'node:path';

/**
 * `svc` when the PATH leads to this very launcher (or when it is not known, in-process); otherwise how it was
 * started: `node bin/svc.js` in a checkout (`npm run demo`), or `node /abs/path/bin/svc.js` from elsewhere; the single
 * executable (`executable`: `script` is the executable itself) by its path alone.
 */
export function svcCommand(o: { script: string | undefined; path: string | undefined; cwd: string; executable?: boolean }): string {
  if (!o.script || !/^svc(\.js|\.exe)?$/.test(basename(o.script))) return 'svc';
  const script = real(o.script) ?? o.script;
  // npm and npx put node_modules/.bin on the PATH of what they run, not of the user's shell afterwards.
  for (const dir of (o.path ?? '').split(delimiter)) if (dir && !/node_modules[\\/]\.bin$/.test(dir) && real(join(dir, 'svc')) === script) return 'svc';
  const rel = relative(o.cwd, script);
  if (o.executable) return quote(rel && !rel.startsWith('..') && !isAbsolute(rel) ? `./${rel}` : script);
  return `node ${quote(rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : script)}`;
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
