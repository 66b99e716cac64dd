import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir, type SvcOptions } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { builtForOtherUsers, canActAsNobody, useBundledSvc } from '../helpers/bundled';

const log: string[] = [];
const t = useEmulator({ log: (l) => log.push(l) });

const run = (args: string[], o: SvcOptions = {}) => svc(args, { columns: 200, ...o, env: { ...emuEnv(t.emu), NO_COLOR: '1', ...o.env } });

/** Runs `fn` and returns it with the writes (not GETs) the emulator answered meanwhile. */
async function withWrites<T>(fn: () => Promise<T>): Promise<{ r: T; writes: string[] }> {
  const from = log.length;
  const r = await fn();
  return { r, writes: log.slice(from).filter((l) => !l.startsWith('GET ')) };
}

const GOOD = 'kind: MemoryStore\nname: good-first\n';

describe('svc apply: reading the files', () => {
  it('bytes that are not UTF-8 are exit 2 naming the file and line, with nothing sent', async () => {
    const dir = tempConfigDir();
    writeFileSync(
      join(dir, 'env.yaml'),
      Buffer.concat([Buffer.from('kind: Environment\nname: latin1\ndescription: caf'), Buffer.from([0xe9]), Buffer.from('\n')]),
    );
    const { r, writes } = await withWrites(() => run(['apply', '-f', '.', '--set', 'utf8'], { cwd: dir }));
    expect(r.stderr).toBe('error: env.yaml line 3: not UTF-8 (byte 0xe9 at offset 47)\n');
    expect(r.code).toBe(2);
    expect(writes).toEqual([]);
  });

  it('a FIFO named *.yaml inside a -f folder is skipped with a note; the regular files are applied', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'store.yaml'), 'kind: MemoryStore\nname: beside-a-fifo\n');
    execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
    const r = await run(['apply', '-f', '.', '--set', 'fifo-folder'], { cwd: dir });
    expect(r.stderr).toBe('note: skipped pipe.yaml: not a regular file\n');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ kind: 'MemoryStore', name: 'beside-a-fifo', action: 'created' }]);
  }, 20_000);

  it('a symlinked *.yaml inside a -f folder is read', async () => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'real.yaml'), 'kind: MemoryStore\nname: via-link\n');
    symlinkSync(join(dir, 'real.yaml'), join(dir, 'config', 'linked.yaml'));
    const r = await run(['diff', '-f', 'config', '--set', 'links', '-o', 'table'], { cwd: dir });
    expect(r.stdout).toContain('+ MemoryStore via-link');
  });

  it('a YAML alias bomb is exit 2 naming the file, with nothing sent', async () => {
    const dir = tempConfigDir();
    let bomb = 'kind: Agent\nname: bomb\nmodel: m\nmetadata:\n  a: &a [x, x, x, x, x, x, x, x, x]\n';
    let prev = 'a';
    for (let i = 0; i < 9; i++) {
      bomb += `  b${i}: &b${i} [${Array(9).fill(`*${prev}`).join(', ')}]\n`;
      prev = `b${i}`;
    }
    writeFileSync(join(dir, 'a.yaml'), GOOD);
    writeFileSync(join(dir, 'b.yaml'), bomb);
    const { r, writes } = await withWrites(() => run(['apply', '-f', '.', '--set', 'bomb'], { cwd: dir }));
    expect(r.stderr).toBe('error: b.yaml (line 1): too many YAML aliases (an alias bomb?)\n');
    expect(r.code).toBe(2);
    expect(writes).toEqual([]);
  });

  it('a YAML alias cycle after a good document is exit 2 naming the file, and the good document is not applied', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'both.yaml'), `${GOOD}---\nkind: Agent\nname: cyclic\nmodel: m\nmetadata: &m\n  self: *m\n`);
    const { r, writes } = await withWrites(() => run(['apply', '-f', 'both.yaml', '--set', 'cycle'], { cwd: dir }));
    expect(r.stderr).toBe('error: both.yaml document 2 (line 4): a YAML alias refers to a value that contains it (an alias cycle)\n');
    expect(r.code).toBe(2);
    expect(writes).toEqual([]);
  });
});

describe('svc apply: a Skill folder', () => {
  const skillDoc = 'kind: Skill\nname: linked-skill\npath: skill\n';

  it('a symlinked SKILL.md is followed and packaged, never left out', async () => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, 'skill'));
    writeFileSync(join(dir, 'SKILL.md'), '# Linked\n');
    writeFileSync(join(dir, 'skill', 'notes.md'), 'notes\n');
    symlinkSync(join(dir, 'SKILL.md'), join(dir, 'skill', 'SKILL.md'));
    writeFileSync(join(dir, 'skill.yaml'), skillDoc);
    const r = await run(['diff', '-f', 'skill.yaml', '--set', 'skill-link', '-o', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)[0].diff).toContainEqual({ op: 'add', path: 'package', new: expect.objectContaining({ files: 2 }) });
  });

  it.each([
    ['a symlink to a folder', (dir: string) => symlinkSync(dir, join(dir, 'skill', 'loop')), /skill\.yaml \(line 1\): path skill: loop: a symlink to a folder/],
    [
      'a dangling symlink',
      (dir: string) => symlinkSync(join(dir, 'gone'), join(dir, 'skill', 'gone.md')),
      /path skill: gone\.md: a symlink that leads nowhere: ENOENT/,
    ],
    ['a FIFO', (dir: string) => execFileSync('mkfifo', [join(dir, 'skill', 'pipe')]), /path skill: pipe: not a regular file/],
  ])('%s inside a skill folder is exit 2 naming it, with nothing sent', async (_what, make, message) => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, 'skill'));
    writeFileSync(join(dir, 'skill', 'SKILL.md'), '# Skill\n');
    make(dir);
    writeFileSync(join(dir, 'skill.yaml'), skillDoc);
    const { r, writes } = await withWrites(() => run(['apply', '-f', 'skill.yaml', '--set', 'skill-bad'], { cwd: dir }));
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(writes).toEqual([]);
  });

  // Root reads any file whatever its mode, so the refusal cannot be provoked here.
  it.skipIf(process.getuid?.() === 0)('an unreadable file inside a skill folder is exit 2 naming it', async () => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, 'skill'));
    writeFileSync(join(dir, 'skill', 'SKILL.md'), '# Skill\n');
    writeFileSync(join(dir, 'skill', 'secret.md'), 'x\n');
    chmodSync(join(dir, 'skill', 'secret.md'), 0);
    writeFileSync(join(dir, 'skill.yaml'), skillDoc);
    const r = await run(['apply', '-f', 'skill.yaml', '--set', 'skill-unreadable'], { cwd: dir });
    expect(r.stderr).toMatch(/path skill: secret\.md: cannot read: EACCES/);
    expect(r.code).toBe(2);
  });
});

// Root reads any file, so as root the unreadable file is read by another user: the built svc run as nobody, from a
// copy nobody can read wherever the checkout is (a clone under /root or in a `mktemp -d` folder is closed to them).
describe(
  'svc apply run as another user (root reads every file)',
  {
    skip: !canActAsNobody,
    meta: canActAsNobody ? {} : { skipReason: 'needs root and setpriv to act as another user (nobody)' },
  },
  () => {
    const built = useBundledSvc();
    it('an unreadable file inside a skill folder is exit 2 naming it, with nothing sent (svc run as nobody)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-skill-nobody-'));
      chmodSync(dir, 0o755);
      const config = join(dir, 'config');
      mkdirSync(config, { mode: 0o700 });
      mkdirSync(join(dir, 'skill'), { mode: 0o755 });
      writeFileSync(join(dir, 'skill', 'SKILL.md'), '# Skill\n', { mode: 0o644 });
      writeFileSync(join(dir, 'skill', 'secret.md'), 'x\n', { mode: 0o600 });
      writeFileSync(join(dir, 'skill.yaml'), 'kind: Skill\nname: nobody-skill\npath: skill\n', { mode: 0o644 });
      const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
      chownSync(config, nobody, nobody);
      const copy = builtForOtherUsers(built.bin);
      const bin = copy.bin;
      // Spawned, not spawnSync: the emulator answering it runs in this process.
      const { writes, r } = await withWrites(
        () =>
          new Promise<{ status: number | null; stderr: string }>((resolve) => {
            const args = ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, bin, 'apply', '-f', 'skill.yaml', '--set', 'skill-nobody'];
            const env = {
              PATH: process.env.PATH ?? '',
              SVC_CONFIG_DIR: config,
              SVC_BASE_URL: t.emu.url,
              SVC_API_KEY: t.emu.apiKey,
              NO_COLOR: '1',
              NODE_DISABLE_COMPILE_CACHE: '1',
            };
            const child = spawn('setpriv', args, { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
            let stderr = '';
            child.stderr.on('data', (d) => (stderr += d));
            child.on('close', (status) => resolve({ status, stderr }));
          }),
      );
      rmSync(copy.folder, { recursive: true, force: true });
      expect(r.stderr).toMatch(/secret\.md: cannot read: EACCES/);
      expect(r.status).toBe(2);
      expect(writes).toEqual([]);
    });
  },
);
