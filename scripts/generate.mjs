// `npm run generate`: what is made from the built command tree and checked in, written afresh: completions/ (from
// `svc completion SHELL`) and package.json's `man` field (the pages the build made in dist/man, svc.1 first).
// test/completion/files.test.ts and test/cli/reference.test.ts fail while either is stale.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
for (const [shell, file] of Object.entries({ bash: 'svc.bash', zsh: '_svc', fish: 'svc.fish' }))
  writeFileSync(new URL(`completions/${file}`, root), execFileSync(process.execPath, ['bin/svc.js', 'completion', shell], { cwd: root, encoding: 'utf8' }));
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const pages = readdirSync(new URL('dist/man', root)).filter((f) => f.endsWith('.1'));
pkg.man = pages.sort((a, b) => (a === 'svc.1' ? -1 : b === 'svc.1' ? 1 : a.localeCompare(b))).map((f) => `./dist/man/${f}`);
writeFileSync(new URL('package.json', root), JSON.stringify(pkg, null, 2) + '\n');
