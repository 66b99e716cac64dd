/** Timing and memory probes for the bench: child processes only, so each figure includes node's start like a user sees it. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Wall time of one run to exit, in ms; throws when the command fails (a bench of a failing command measures nothing). */
export function timeRun(cmd, args, env, input) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, input, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
  return ms;
}

/**
 * Median of paired runs: each round runs the floor and the subject back to back (order alternating, so drift
 * in machine load hits both) and keeps the ratio; the median ratio is the figure.
 */
export async function paired(rounds, floor, subject) {
  const ratios = [];
  const f = [];
  const s = [];
  for (let i = 0; i < rounds; i++) {
    let a, b;
    if (i % 2) {
      b = await subject();
      a = await floor();
    } else {
      a = await floor();
      b = await subject();
    }
    f.push(a);
    s.push(b);
    ratios.push(b / a);
  }
  return { ratio: median(ratios), floorMs: median(f), subjectMs: median(s) };
}

/** Peak RSS (MiB), wall time and CPU time (user + system, in 10 ms steps) of a command, through GNU time. */
export function peakRss(cmd, args, env) {
  if (!existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is not installed (apt-get install time)');
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '__RSS_KIB=%M %U %S', cmd, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const m = /__RSS_KIB=(\d+) (\S+) (\S+)/.exec(String(r.stderr));
  if (r.status !== 0 || !m) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-300)}`);
  return { mib: Number(m[1]) / 1024, ms, cpuMs: (Number(m[2]) + Number(m[3])) * 1000 };
}

/**
 * Time from spawn until `marker` appears on a pseudo-terminal (util-linux `script`), then the process is killed.
 * Without a marker, the time to exit. The floor runs under the same `script` wrapper.
 */
export function ptyTime(command, env, marker, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...env, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let seen = '';
    let done = false;
    const finish = (err) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      if (err) reject(err);
      else resolve(ms);
    };
    const timer = setTimeout(() => finish(new Error(`no "${marker}" within ${timeoutMs} ms; saw: ${seen.slice(-300)}`)), timeoutMs);
    child.stdout.on('data', (d) => {
      seen += d.toString();
      if (marker && seen.includes(marker)) finish();
    });
    child.on('exit', (code) => (marker ? finish(new Error(`exited ${code} before "${marker}"; saw: ${seen.slice(-300)}`)) : finish()));
  });
}

/**
 * Several subjects in one interleaved run: every round runs each once (the order rotating, so drift in machine
 * load hits all of them), each through GNU time for wall time and peak RSS. Returns each subject's medians, and
 * `ratio(a, b)`: the median of the per-round ratios of a's time to b's (paired, so shared noise cancels).
 */
export function interleaved(rounds, subjects) {
  const names = Object.keys(subjects);
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < names.length; j++) {
      const n = names[(i + j) % names.length];
      const { cmd, args, env } = subjects[n];
      runs[n].push(peakRss(cmd, args, env ?? process.env));
    }
  }
  const med = (n, k) => median(runs[n].map((r) => r[k]));
  return {
    ms: (n) => med(n, 'ms'),
    mib: (n) => med(n, 'mib'),
    maxMib: (n) => Math.max(...runs[n].map((r) => r.mib)),
    ratio: (a, b) => median(runs[a].map((r, i) => r.ms / runs[b][i].ms)),
    cpuMs: (n) => med(n, 'cpuMs'),
    /** The ratio of the CPU medians: one run's CPU time is too coarse (10 ms) for per-round ratios. */
    cpuRatio: (a, b) => med(a, 'cpuMs') / med(b, 'cpuMs'),
  };
}
