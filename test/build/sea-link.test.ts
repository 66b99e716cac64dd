import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkChunks, REST_ASSET } from '../../scripts/sea-link.mjs';
import { tempConfigDir } from '../helpers/cli';

/**
 * A SEA build's layout in small (`svc.js` and `chunks/`, CommonJS requiring each other by relative path), of the
 * test's own: a require cycle, a builtin, a chunk that throws on its first run, one required late.
 */
function build(extra: Record<string, string> = {}): string {
  const dir = tempConfigDir();
  mkdirSync(join(dir, 'chunks'));
  const files: Record<string, string> = {
    'svc.js': `"use strict";
      const log = (globalThis.svcLinkLog ??= []);
      const a = require("./chunks/a.js");
      log.push("svc sees " + a.name + " and " + a.fromB());
      for (let i = 0; i < 2; i++) {
        try { log.push("flaky " + require("./chunks/flaky.js").value); } catch (err) { log.push("flaky threw " + err.message); }
      }
      log.push("late " + require("./chunks/late.js").late(require("node:path").sep));`,
    'chunks/a.js': `"use strict";
      exports.name = "a";
      const b = require("./b.js");
      exports.fromB = () => b.seen;`,
    'chunks/b.js': `"use strict";
      const a = require("./a.js");
      exports.seen = "b saw " + a.name + " while a loaded";`,
    'chunks/flaky.js': `"use strict";
      globalThis.svcLinkFlaky = (globalThis.svcLinkFlaky ?? 0) + 1;
      if (globalThis.svcLinkFlaky === 1) throw new Error("first run");
      exports.value = "run " + globalThis.svcLinkFlaky;`,
    'chunks/late.js': `"use strict";
      exports.late = (sep) => "from the rest, sep " + sep;`,
    ...extra,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** What the build's chunks log when Node runs them from disk, as its own CommonJS loader loads files. */
function runFromDisk(dir: string): string[] {
  const script = `require(${JSON.stringify(join(dir, 'svc.js'))}); process.stdout.write(JSON.stringify(globalThis.svcLinkLog))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

/** What the linked main logs, run as the executable runs it: its require gives `node:sea`'s raw asset of the rest. */
function runLinked(main: string, rest: string): string[] {
  const bytes = Buffer.from(rest, 'latin1');
  const asset = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const real = createRequire(import.meta.url);
  const requireOf = (spec: string) => (spec === 'node:sea' ? { getRawAsset: (key: string) => (key === REST_ASSET ? asset : undefined) } : real(spec));
  const g = globalThis as { svcLinkLog?: string[]; svcLinkFlaky?: number };
  delete g.svcLinkLog;
  delete g.svcLinkFlaky;
  new Function('require', 'module', main)(requireOf, { exports: {} });
  return g.svcLinkLog ?? [];
}

describe("the single executable's chunks, linked (scripts/sea-link.mjs)", () => {
  it('runs as Node runs the chunks from disk, whichever chunks the main holds: cycles, builtins, a chunk that threw runs again', () => {
    const dir = build();
    const expected = runFromDisk(dir);
    expect(expected).toEqual(['svc sees a and b saw a while a loaded', 'flaky threw first run', 'flaky run 2', 'late from the rest, sep /']);
    for (const core of [undefined, new Set(['svc.js', 'chunks/a.js']), new Set(['svc.js'])]) {
      const { main, rest } = linkChunks(dir, core);
      expect(runLinked(main, rest)).toEqual(expected);
    }
  });

  it('puts the core chunks in the main and every other chunk in the rest, each once', () => {
    const { main, rest } = linkChunks(build(), new Set(['svc.js', 'chunks/a.js', 'chunks/b.js']));
    expect(main).toContain('b saw');
    expect(main).not.toContain('from the rest');
    expect(rest).toContain('from the rest');
    expect(rest).toContain('first run');
    expect(rest).not.toContain('b saw');
    expect(linkChunks(build()).rest).toBe('');
  });

  it('fails the link on a relative require that names no chunk, a core chunk the build has not, a chunk that would not compile', () => {
    expect(() => linkChunks(build({ 'chunks/late.js': 'exports.late = () => require("./gone.js");' }))).toThrow(
      /chunks\/late\.js requires \.\/gone\.js, which is no chunk of the build/,
    );
    expect(() => linkChunks(build(), new Set(['svc.js', 'chunks/nope.js']))).toThrow(/no such chunk: chunks\/nope\.js/);
    // A chunk of the rest that would not compile fails the link, not the first command that needs it.
    expect(() => linkChunks(build({ 'chunks/late.js': 'exports.late = () => {' }), new Set(['svc.js']))).toThrow(SyntaxError);
    expect(() => linkChunks(build(), new Set(['chunks/a.js']))).toThrow(/must hold svc\.js/);
  });
});
