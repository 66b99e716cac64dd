/**
 * The single executable's main when it starts from a trained code cache (scripts/sea.mjs, for the platform it is
 * built on: scripts/build/PERF.md, "The trained, linked executable"). svc's main is the asset `main.js`, wrapped as a CommonJS
 * function: the chunks of src/sea/entry.ts's build that `agents get` runs, linked, with every other chunk compiled
 * from the asset `chunks.js` on its first require (scripts/sea-link.mjs). `main.cache` is V8's code cache of it made
 * at the end of a build-time run of `agents get`, so the functions a command calls are compiled already. Node's own SEA code
 * cache is made by compiling the main without running it, which leaves every function but the top level to compile
 * at each start.
 *
 * The source is read as Latin-1 (the main is ASCII): a one-byte string, copied once. A cache V8 refuses (another
 * Node, a V8 flag) costs only the compiling it would have saved.
 */
import { getRawAsset } from 'node:sea';
import { Script } from 'node:vm';

type CommonJsMain = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** An asset as the executable holds it, not copied (getRawAsset's type also allows a string, which it never returns). */
const asset = (key: string) => getRawAsset(key) as ArrayBuffer;

// No V8 flag before the cache is read: the training run set none (scripts/sea-train.cjs), and a flag set here would
// also void Node's own code cache of every builtin the command loads after it (scripts/build/PERF.md). The command
// sets its heavy-run flags itself, as undici makes its first connection.
const source = Buffer.from(asset('main.js')).toString('latin1');
const script = new Script(source, { filename: 'svc.js', cachedData: new Uint8Array(asset('main.cache')) });
const mod = { exports: {} };
(script.runInThisContext() as CommonJsMain)(mod.exports, require, mod, 'svc.js', '.');
