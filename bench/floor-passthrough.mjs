/**
 * Node's pass-through floor for reading a session stream: undici body → eventsource-parser → each frame's `data`
 * line written to stdout in 64 KiB batches. Stops at the idle status. Usage: node bench/floor-passthrough.mjs URL KEY
 */
import { createParser } from 'eventsource-parser';
import { request } from 'undici';

const [url, key] = process.argv.slice(2);
const { body } = await request(url, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'svc-api-version': '2026-09-01-beta' } });
let out = '';
let done = false;
const parser = createParser({
  onEvent(m) {
    if (m.event === 'control') return;
    out += m.data + '\n';
    if (m.event === 'session.status') done = true;
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
