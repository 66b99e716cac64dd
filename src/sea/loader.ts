/**
 * The single executable's main when it starts from a trained code cache (scripts/sea.mjs `--startup trained`, the
 * default: scripts/build/PERF.md, "A trained code cache"). svc's main is the asset `main.js`, wrapped as a CommonJS
 * function: the chunks of src/sea/entry.ts's build that `agents get` runs, linked, with every other chunk compiled
 * from the asset `chunks.js` on its first require (scripts/sea-link.mjs). `main.cache` is V8's code cache of it made
 * after a build-time run of `agents get`, so the functions a command calls are compiled already. Node's own SEA code
 * cache is made by compiling the main without running it, which leaves every function but the top level to compile
 * at each start.
 *
 * The source is read as Latin-1 (the main is ASCII): a one-byte string, copied once. A cache V8 refuses (another
 * Node, other V8 flags) costs only the compiling it would have saved.
 */
import { getRawAsset } from 'node:sea';
import { Script } from 'node:vm';
import { applyHeavyRunFlags } from '../startup/v8-flags';

type CommonJsMain = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** An asset as the executable holds it, not copied (getRawAsset's type also allows a string, which it never returns). */
const asset = (key: string) => getRawAsset(key) as ArrayBuffer;

// The training run of `agents get` set the heavy-run flags as undici made its first connection (api/http.ts), so the
// cache was made under them: set before it is read, or V8 refuses it (docs/decisions/network.md).
applyHeavyRunFlags();
const source = Buffer.from(asset('main.js')).toString('latin1');
const script = new Script(source, { filename: 'svc.js', cachedData: new Uint8Array(asset('main.cache')) });
const mod = { exports: {} };
(script.runInThisContext() as CommonJsMain)(mod.exports, require, mod, 'svc.js', '.');
