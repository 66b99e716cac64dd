// `npm run build` / `prepack`: the bundle into dist/, then the man pages from its command tree into dist/man/.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const started = new Date();
await bundle(dist);
// SOURCE_DATE_EPOCH (reproducible builds) dates the pages; else today.
const epoch = Number(process.env.SOURCE_DATE_EPOCH);
const date = new Date(Number.isFinite(epoch) && epoch > 0 ? epoch * 1000 : Date.now()).toISOString().slice(0, 10);
const pages = await createRequire(import.meta.url)(`${dist}/cli.js`).manPages(date);
mkdirSync(`${dist}/man`, { recursive: true });
for (const [name, text] of Object.entries(pages)) writeFileSync(`${dist}/man/${name}`, text);
// Last, so an interrupted build leaves none, dated when the build began (a source saved meanwhile is newer):
// scripts/ensure-built.mjs compares the sources with it.
writeFileSync(`${dist}/.build-stamp`, `${started.toISOString()}\n`);
utimesSync(`${dist}/.build-stamp`, started, started);
