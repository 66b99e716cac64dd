/**
 * The pass-through floor (floor-passthrough.mjs) plus what a naive reader does per event: JSON.parse, a Set of
 * event ids for dedupe, JSON.stringify for the line. Usage: node bench/floor-parse.mjs URL KEY
 */
import { createParser } from 'eventsource-parser';
import { request } from 'undici';

const [url, key] = process.argv.slice(2);
const { body } = await request(url, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'svc-api-version': '2026-09-01-beta' } });
let out = '';
let done = false;
const seen = new Set();
const parser = createParser({
  onEvent(m) {
    if (m.event === 'control') return;
    const e = JSON.parse(m.data);
    if (seen.has(e.id)) return;
    seen.add(e.id);
    out += JSON.stringify(e) + '\n';
    if (e.type === 'session.status') done = true;
  },
});
const decoder = new TextDecoder();
for await (const chunk of body) {
  parser.feed(decoder.decode(chunk, { stream: true }));
  if (out.length >= 65536) {
    if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r));
    out = '';
  }
  if (done) break;
}
process.stdout.write(out);
