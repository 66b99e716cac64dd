// `node -r scripts/sea-record.cjs DIR/svc.js ARGS…` with SVC_SEA_RECORD=FILE (scripts/sea.mjs): runs the SEA build's
// chunks from disk, as Node's own loader loads them, and when the command exits writes to FILE the chunks it loaded,
// one key a line (`svc.js`, `chunks/NAME.js`): the chunks scripts/sea-link.mjs puts in the executable's main.
'use strict';
const { writeFileSync } = require('node:fs');
const { dirname, relative, sep } = require('node:path');

process.on('exit', () => {
  const dir = require('node:fs').realpathSync(dirname(process.argv[1]));
  const keys = Object.keys(require.cache)
    .filter((file) => file.startsWith(dir + sep) && file.endsWith('.js'))
    .map((file) => relative(dir, file).split(sep).join('/'));
  writeFileSync(process.env.SVC_SEA_RECORD, `${keys.sort().join('\n')}\n`);
});
