import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiError, NetworkError } from '../../api/errors';
import { agents } from '../../api/resources';
import type { Ctx } from '../../runtime/context';
import { ExitCodeError, exitCodeFor } from '../../runtime/errors';
import { API_VERSION } from '../../wire/version';
import { examples, noOptions, type Kit } from '../../cli/action';
import { printsNoIds } from '../../cli/text-output';
import { maskUrlPassword } from '../../text/redact';

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

const MAX_SKEW_MS = 60_000;

export async function runDoctor(ctx: Ctx): Promise<void> {
  const checks: Check[] = [];
  let worst = 0;
  const failed = (c: Check, code: number) => {
    checks.push(c);
    worst ||= code;
  };
  let settingsOk = true;
  try {
    const s = ctx.settings;
    let mode = '';
    try {
      mode = (statSync(s.configFile).mode & 0o777).toString(8);
    } catch {
      mode = 'absent';
    }
    const loose = mode !== 'absent' && mode !== '600';
    checks.push({
      check: 'config',
      ok: !loose,
      detail: `${s.configFile} (${mode === 'absent' ? 'not created yet' : `mode ${mode}`}), profile ${s.profile.value}`,
      fix: loose ? `chmod 600 ${s.configFile}` : undefined,
    });
  } catch (e) {
    settingsOk = false;
    failed({ check: 'config', ok: false, detail: (e as Error).message, fix: 'fix or remove the file named above' }, 2);
  }
  if (settingsOk) {
    const s = ctx.settings;
    if (!s.apiKey) failed({ check: 'credential', ok: false, detail: 'no API key', fix: 'svc auth login, or set SVC_API_KEY' }, 4);
    else checks.push({ check: 'credential', ok: true, detail: `API key from ${s.apiKey.source}` });
    if (s.apiVersion !== API_VERSION)
      checks.push({ check: 'version', ok: false, detail: `SVC_API_VERSION=${s.apiVersion}; the service speaks ${API_VERSION}`, fix: 'unset SVC_API_VERSION' });
    if (s.apiKey) {
      const c = await ctx.client(s.apiKey.value);
      const started = ctx.now();
      try {
        const res = await agents.page(c, { page_size: 1 });
        const ms = ctx.now() - started;
        checks.push({ check: 'connectivity', ok: true, detail: `${maskUrlPassword(s.baseUrl.value)} answered in ${ms} ms` });
        checks.push({ check: 'version header', ok: true, detail: `${s.apiVersion} accepted` });
        const date = Date.parse(res.headers.date ?? '');
        if (!Number.isNaN(date)) {
          const skew = Math.abs(ctx.now() - date);
          const ok = skew < MAX_SKEW_MS;
          checks.push({
            check: 'clock',
            ok,
            detail: `${Math.round(skew / 1000)} s from the service's clock`,
            fix: ok ? undefined : 'sync the clock (timedatectl set-ntp true)',
          });
          if (!ok) worst ||= 1;
        }
      } catch (e) {
        const code = exitCodeFor(e);
        if (e instanceof NetworkError)
          failed({ check: 'connectivity', ok: false, detail: e.message, fix: 'check --base-url / SVC_BASE_URL and the network' }, code);
        else if (e instanceof ApiError && e.status === 400 && e.type === 'invalid_request_error')
          failed({ check: 'version header', ok: false, detail: e.message, fix: 'upgrade svc or unset SVC_API_VERSION' }, code);
        else if (e instanceof ApiError && (e.status === 401 || e.status === 403))
          failed({ check: 'credential', ok: false, detail: e.message, fix: 'svc auth login with a valid key' }, code);
        else failed({ check: 'connectivity', ok: false, detail: (e as Error).message, fix: otherFix(e) }, code);
      }
    }
  }
  await ctx.out.list(checks, [
    { header: 'CHECK', get: (c) => c.check },
    { header: 'OK', get: (c) => (c.ok ? 'ok' : 'FAIL') },
    { header: 'DETAIL', get: (c) => c.detail },
    { header: 'FIX', get: (c) => c.fix ?? '' },
  ]);
  if (worst) throw new ExitCodeError(worst, `${checks.filter((c) => !c.ok).length} check(s) failed`);
}

/** A fix for an answer the checks above do not name: a failing service, or a URL that is not the service's. */
function otherFix(e: unknown): string {
  if (e instanceof ApiError && e.status >= 500) return 'the service is failing: try again later; --debug shows the request ID to report';
  if (e instanceof ApiError && e.status === 404) return 'the base URL does not serve the API: check --base-url / SVC_BASE_URL (svc config set base_url URL)';
  return 'run the command again with --debug to see the request and the answer';
}

export default function build(cmd: Command, kit: Kit): void {
  examples(cmd, ['svc doctor', 'svc doctor -o json']);
  printsNoIds(cmd, 'checks have no IDs (try -o json)');
  cmd.action(kit.verb(noOptions, (ctx) => runDoctor(ctx)));
}
