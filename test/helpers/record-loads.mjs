// Registered with `node --import`: appends every module URL Node loads to $SVC_LOAD_LOG.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.SVC_LOAD_LOG, url + '\\n');
  return next(url, context);
}`),
);
