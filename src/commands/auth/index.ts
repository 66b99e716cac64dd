import type { Command } from 'commander';
import { agents } from '../../api/resources';
import { maskUrlPassword } from '../../text/redact';
import { removeSecret, saveSecret } from '../../config/secrets';
import { KEYCHAIN_REFS } from '../../config/shape';
import { addSecret } from '../../text/redact';
import { maskSecret } from '../../config/settings';
import { checkCredential } from '../../config/validate';
import type { Ctx } from '../../runtime/context';
import { NoCredentialError, UsageError } from '../../runtime/errors';
import { confirm, prompt } from '../../input/prompt';
import { stdinText } from '../../input/read';
import { write } from '../../runtime/io';
import { examples, noOptions, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { printsNoIds, printsText } from '../../cli/text-output';

/**
 * One cheap read that proves a key works: a page of agents, as documented. A redirect, an empty answer or another
 * shape throws (exit 9), so nothing is stored on anything but a real success.
 */
async function verify(ctx: Ctx, key: string, baseUrl: string): Promise<void> {
  const c = await ctx.client(key, baseUrl);
  await agents.list(c, {}, { pageSize: 1 }).next();
}

/** `svc auth login [--with-token]`. */
export interface LoginOptions {
  withToken: boolean;
  /** `--insecure-storage`: the key goes to the 0600 config file even where there is a keychain. */
  insecureStorage: boolean;
}

/** `svc auth login`'s flags. */
export const AUTH_LOGIN_FLAGS = flagTable({
  withToken: { flags: '--with-token', description: 'read the key from standard input' },
  insecureStorage: { flags: '--insecure-storage', description: 'store the key in the config file (mode 0600) even where there is a keychain' },
});

export const parseLogin = (_args: string[], flags: FlagsOf<typeof AUTH_LOGIN_FLAGS>): LoginOptions => ({
  withToken: Boolean(flags.withToken),
  insecureStorage: Boolean(flags.insecureStorage),
});

export async function runLogin(ctx: Ctx, opts: LoginOptions): Promise<void> {
  const s = ctx.settings;
  let key: string;
  if (opts.withToken) key = (await stdinText(ctx.io)).trim();
  else if (ctx.canPrompt) key = await prompt(ctx.io, 'API key: ', true);
  else throw new UsageError('no terminal to ask on: pipe the key with `svc auth login --with-token < key.txt`');
  if (!key) throw new UsageError('the API key is empty');
  addSecret(key);
  checkCredential(key, opts.withToken ? 'standard input' : 'the prompt', 'API key');
  await verify(ctx, key, s.baseUrl.value);
  const profile = s.profile.value;
  const url = maskUrlPassword(s.baseUrl.value);
  // Stored only when asked for (--base-url) or confirmed: an exported SVC_BASE_URL is often a throwaway emulator's.
  // Asked only where the key was typed at a prompt: with --with-token, standard input held the key.
  const fromEnv = s.baseUrl.source === 'env';
  const confirmed =
    fromEnv && !opts.withToken && ctx.canPrompt && (await confirm(ctx.io, `Store base_url ${url} (from SVC_BASE_URL) in profile ${profile}?`, s.accessible));
  const storeUrl = s.baseUrl.source === 'flag' || confirmed;
  const saved = await saveSecret(
    { file: s.configFile, profile, key: 'api_key', env: ctx.io.env, signal: ctx.io.signal },
    key,
    opts.insecureStorage,
    (data, p) => {
      if (storeUrl) p.base_url = s.baseUrl.value;
      data.current_profile ??= profile;
    },
  );
  if (saved.notice) await ctx.msg(saved.notice);
  const urlLine = storeUrl
    ? `base_url  ${url} (from ${fromEnv ? 'SVC_BASE_URL, as confirmed' : '--base-url'})`
    : fromEnv
      ? `base_url  not stored: ${url} came from SVC_BASE_URL (give --base-url ${url} to store it)`
      : s.baseUrl.source === 'profile'
        ? `base_url  ${url} (already in the profile, unchanged)`
        : `base_url  not stored: ${url} is the default (give --base-url to store another)`;
  await ctx.msg(
    [
      `Logged in: profile ${profile} in ${s.configFile} now holds`,
      `  api_key   ${saved.keychain ? `in ${saved.keychain}` : maskSecret(key)} (from ${opts.withToken ? 'standard input' : 'the prompt'})`,
      `  ${urlLine}`,
    ].join('\n'),
  );
}

/** Where the profile keeps its key: the keychain's name, `config file`, or null for none (flags and env are sources, not stores). */
function keyStore(ctx: Ctx): string | null {
  const s = ctx.settings;
  const p = s.config.profiles[s.profile.value] ?? {};
  if (p.api_key) return 'config file';
  if (!p[KEYCHAIN_REFS.api_key]) return null;
  return s.apiKey?.keychain ?? 'system keychain';
}

export async function runStatus(ctx: Ctx): Promise<void> {
  const s = ctx.settings;
  const key = s.apiKey;
  const status: Record<string, unknown> = {
    profile: s.profile.value,
    base_url: maskUrlPassword(s.baseUrl.value),
    base_url_source: s.baseUrl.source,
    api_key: key ? maskSecret(key.value) : null,
    api_key_source: key?.source ?? null,
    config_file: s.configFile,
    api_key_store: keyStore(ctx),
    stored_in_config: Boolean(s.config.profiles[s.profile.value]?.api_key),
  };
  let failure: unknown;
  if (key) {
    try {
      await verify(ctx, key.value, s.baseUrl.value);
      status.valid = true;
    } catch (e) {
      status.valid = false;
      failure = e;
    }
  } else {
    status.valid = false;
    failure = new NoCredentialError();
  }
  await ctx.out.item(status);
  if (failure) throw failure;
}

/** Prints the resolved API key alone, for scripts. */
export async function runToken(ctx: Ctx): Promise<void> {
  const key = ctx.settings.apiKey;
  if (!key) throw new NoCredentialError();
  await write(ctx.io.stdout, key.value + '\n');
}

export async function runLogout(ctx: Ctx): Promise<void> {
  const s = ctx.settings;
  const profile = s.profile.value;
  const where = await removeSecret({ file: s.configFile, profile, key: 'api_key', env: ctx.io.env, signal: ctx.io.signal });
  if (!where) {
    await ctx.msg(`profile ${profile} holds no API key; nothing to do`);
    return;
  }
  await ctx.msg(`Logged out: the API key of profile ${profile} was removed from ${where}`);
  // From the flag and variable themselves: the profile's key, just removed, is not read again.
  const still = ctx.globals.apiKey ? '--api-key' : ctx.io.env.SVC_API_KEY ? 'SVC_API_KEY' : undefined;
  if (still) await ctx.msg(`note: a key is still set by ${still}`);
}

export default function build(group: Command, kit: Kit): void {
  const login = addFlags(
    group.command('login').description('Verify an API key and store it in the system keychain (else the 0600 config file)'),
    AUTH_LOGIN_FLAGS,
  );
  examples(login, [
    'svc auth login',
    'svc auth login --with-token < key.txt',
    'svc auth login --insecure-storage',
    'echo "$KEY" | svc auth login --with-token --base-url http://127.0.0.1:4010',
  ]);
  login.action(kit.verb(parseLogin, runLogin));

  const status = group.command('status').description('Show the profile, base URL, where the key comes from, and whether it works');
  examples(status, ['svc auth status', 'svc auth status -o json']);
  printsNoIds(status, 'the status has no ID (try --jq .api_key_source)');
  status.action(kit.verb(noOptions, (ctx) => runStatus(ctx)));

  const logout = group.command('logout').description("Remove the profile's stored API key (from the keychain or the file)");
  examples(logout, ['svc auth logout', 'svc auth logout --profile staging']);
  logout.action(kit.verb(noOptions, (ctx) => runLogout(ctx)));

  const token = group.command('token').description('Print the resolved API key (for scripts)');
  examples(token, ['export SVC_API_KEY=$(svc auth token)']);
  printsText(token, 'it prints the key alone, for scripts');
  token.action(kit.verb(noOptions, (ctx) => runToken(ctx)));
}
