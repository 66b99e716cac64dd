// Writes completions/ from the built CLI (run `npm run build` first); test/completion checks they are current.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const FILES = { bash: 'svc.bash', zsh: '_svc', fish: 'svc.fish' };
const root = new URL('..', import.meta.url);
for (const [shell, file] of Object.entries(FILES))
  writeFileSync(new URL(`completions/${file}`, root), execFileSync(process.execPath, ['bin/svc.js', 'completion', shell], { cwd: root, encoding: 'utf8' }));
