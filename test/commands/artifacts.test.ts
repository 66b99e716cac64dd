// Rules proved here: R-FILE-12
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { createSession, send, waitIdleEvents } from '../helpers/sse';

const t = useEmulator();
const env = () => emuEnv(t.emu);
let sid: string;
let artifactId: string;

/** A session that delivered `report.md` twice: one artifact with versions 1 and 2. */
beforeAll(async () => {
  sid = (await createSession(t.emu)).id;
  await send(t.emu, sid, '/artifact report.md');
  await send(t.emu, sid, '/artifact report.md');
  await waitIdleEvents(t.emu, sid, 2);
  const listed = await call(t.emu, 'GET', `/v1/artifacts?session_id=${sid}`);
  expect(listed.body.items).toHaveLength(1);
  artifactId = listed.body.items[0].id;
  expect(listed.body.items[0].latest_version).toBe(2);
});

describe('svc artifacts', () => {
  it('lists the artifacts of a session with their columns, and gets one', async () => {
    const table = await svc(['artifacts', 'list', '--session', sid], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true, columns: 200 });
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+SESSION\s+LATEST\s+TYPE\s+UPDATED$/);
    expect(table.stdout).toMatch(new RegExp(`${artifactId}\\s+report\\.md\\s+${sid}\\s+2\\s+text/plain`));
    const other = JSON.parse((await svc(['artifacts', 'list', '--session', 'sesn_other'], { env: env() })).stdout);
    expect(other).toEqual([]);
    const got = JSON.parse((await svc(['artifacts', 'get', artifactId], { env: env() })).stdout);
    expect(got).toMatchObject({ id: artifactId, name: 'report.md', session_id: sid });
  });

  it('lists versions newest first', async () => {
    const versions = JSON.parse((await svc(['artifacts', 'versions', artifactId], { env: env() })).stdout);
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });

  it('R-FILE-12 downloads the latest version without --version and a chosen one with it', async () => {
    const dir = tempConfigDir();
    const latest = await svc(['artifacts', 'download', artifactId, '-O', 'latest.md', '--debug'], { env: env(), cwd: dir });
    expect(latest.code).toBe(0);
    // No version in the query: the service picks the latest.
    expect(latest.stderr).toMatch(new RegExp(`> GET \\S+/v1/artifacts/${artifactId}/content attempt=1\\n`));
    const expected = `artifact report.md of session ${sid}\n`;
    expect(readFileSync(join(dir, 'latest.md'), 'utf8')).toBe(expected);
    const v1 = await svc(['artifacts', 'download', artifactId, '--version', '1'], { env: env() });
    expect(v1.code).toBe(0);
    expect(v1.stdout).toBe(expected);
  });

  it('an unknown version is exit 6; a missing output directory is exit 2 before any request', async () => {
    const missing = await svc(['artifacts', 'download', artifactId, '--version', '9'], { env: env() });
    expect(missing.code).toBe(6);
    expect(missing.stdout).toBe('');
    const before = (await call(t.emu, 'GET', '/_emulator/stats')).body.requests;
    const bad = await svc(['artifacts', 'download', artifactId, '-O', 'no/such/dir/'], { env: env(), cwd: tempConfigDir() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: cannot write into no/such/dir/: no such directory\n');
    expect((await call(t.emu, 'GET', '/_emulator/stats')).body.requests).toBe(before);
  });
});
