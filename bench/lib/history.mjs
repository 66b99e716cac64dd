/** Hand-made histories for the fleet benches (stats, trace, grep), appended through the emulator's admin path. */

/** One session's history of `n` events: turns of a model request, a streamed reply and a tool call. */
export function history(n) {
  const t0 = Date.parse('2026-03-02T10:00:00Z');
  const shape = [
    'session.status',
    'agent.model_started',
    'agent.message_started',
    'agent.message',
    'agent.tool_use',
    'agent.tool_started',
    'agent.tool_result',
    'session.status',
  ];
  const items = [];
  for (let i = 0; i < n; i++) {
    const k = i % shape.length;
    const type = shape[k];
    const call = `call_${i - (k - 4)}`;
    const data =
      k === 0
        ? { status: 'running' }
        : k === 7
          ? { status: 'idle', stop_reason: { type: 'end_turn' } }
          : k === 4
            ? { name: i % 3 ? 'bash' : 'grep', input: { command: 'ls -la' }, permission: 'allow' }
            : k === 5 || k === 6
              ? { event_id: call, tool_result: k === 6 ? { content: [{ type: 'text', text: 'a line of output' }] } : undefined }
              : k === 3
                ? { content: [{ type: 'text', text: 'A reply of a few words, as a model would write it.' }] }
                : { model: 'scripted-1' };
    items.push({ id: k === 4 ? call : undefined, type, processed_at: new Date(t0 + i * 250).toISOString(), data });
  }
  return items.map((e) => (e.id === undefined ? { type: e.type, processed_at: e.processed_at, data: e.data } : e));
}

/** Appends `events` to each session of `ids` through the fleet's admin path, `parallel` sessions at a time. */
export async function seedHistories(f, ids, events, parallel = 8) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < ids.length) await f.api('POST', `/_emulator/sessions/${ids[next++]}/history`, { items: events });
    }),
  );
}
