/**
 * The floor readers' shared loop (bench/floor-*.mjs): node:http body → eventsource-parser → `line(frame)` per complete
 * event, whose result (a line, or undefined to skip) is written to stdout in 64 KiB batches. Ends at the idle status
 * (the firehose's last frame). Usage of a floor: node bench/floor-X.mjs URL KEY
 */
import { createParser } from 'eventsource-parser';
import { get } from 'node:http';

export async function floor(line) {
  const [url, key] = process.argv.slice(2);
  const headers = { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'svc-api-version': '2026-09-01-beta' };
  const body = await new Promise((resolve, reject) => get(url, { headers }, resolve).on('error', reject));
  let out = '';
  let done = false;
  const parser = createParser({
    onEvent(m) {
      if (m.event === 'control') return;
      const l = line(m);
      if (l !== undefined) out += l + '\n';
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
}
