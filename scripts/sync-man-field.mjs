// Writes package.json's `man` field from the pages the build made in dist/man (run `npm run build` first);
// test/cli/reference.test.ts fails until the field names exactly the pages of the command tree.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const file = new URL('package.json', root);
const pkg = JSON.parse(readFileSync(file, 'utf8'));
const pages = readdirSync(new URL('dist/man', root)).filter((f) => f.endsWith('.1'));
pages.sort((a, b) => (a === 'svc.1' ? -1 : b === 'svc.1' ? 1 : a.localeCompare(b)));
pkg.man = pages.map((f) => `./dist/man/${f}`);
writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
