import { resolve } from 'node:path';
import type { Command } from 'commander';
import { readCaFile } from '../../api/network';
import { removeSecret, saveSecret, type SecretKey } from '../../config/secrets';
import { KEYCHAIN_REFS, PROFILE_KEYS, SECRET_KEYS, type Profile, type ProfileKey } from '../../config/shape';
import { updateConfig } from '../../config/store';
import { maskSecret, parseOutputFormat, parseSwitch } from '../../config/settings';
import { checkBaseUrl, checkCredential } from '../../config/validate';
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { stdinText } from '../../input/read';
import { write } from '../../runtime/io';
import { examples, noOptions, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import { printsNoIds, printsText } from '../../cli/text-output';
import { addSecret, maskUrlPassword } from '../../text/redact';

function profileKey(key: string): ProfileKey {
  if (!(PROFILE_KEYS as readonly string[]).includes(key)) throw new UsageError(`unknown setting "${key}": use one of ${PROFILE_KEYS.join(', ')}`);
  return key as ProfileKey;
}

/** A value as config prints it: secrets masked to their last 4 characters, a URL's password masked. */
const shown = (key: string, v: string | undefined): string | undefined =>
  v === undefined ? v : SECRET_KEYS.has(key) ? maskSecret(v) : key === 'base_url' ? maskUrlPassword(v) : v;

/** A profile's value as config prints it; a secret held in the keychain is named by where it is, without reading it. */
const profileValue = (p: Profile | undefined, key: ProfileKey): string | undefined =>
  p?.[key] !== undefined ? shown(key, p[key]) : SECRET_KEYS.has(key) && p?.[KEYCHAIN_REFS[key as SecretKey]] ? '(in the system keychain)' : undefined;

/** `svc config get|unset KEY`: the key checked before anything is read. */
export interface ConfigKeyOptions {
  key: ProfileKey;
}

export const parseConfigKey = ([key]: string[]): ConfigKeyOptions => ({ key: profileKey(key) });

/** `svc config set KEY [VALUE | -]`. */
export interface ConfigSetOptions extends ConfigKeyOptions {
  value?: string;
  /** `--insecure-storage`: a secret goes to the 0600 config file even where there is a keychain. */
  insecureStorage: boolean;
}

/** `svc config set`'s flags. */
export const CONFIG_SET_FLAGS = flagTable({
  insecureStorage: { flags: '--insecure-storage', description: 'a secret goes to the config file (mode 0600) even where there is a keychain' },
});

export function parseConfigSet([key, value]: string[], flags: FlagsOf<typeof CONFIG_SET_FLAGS> = {}): ConfigSetOptions {
  const k = profileKey(key);
  const insecureStorage = Boolean(flags.insecureStorage);
  if (insecureStorage && !SECRET_KEYS.has(k)) throw new UsageError(`--insecure-storage is for secrets (api_key, environment_key), not ${k}`);
  return { key: k, value, insecureStorage };
}

/** `svc config use PROFILE`. */
export interface ConfigUseOptions {
  profile: string;
}

export const parseConfigUse = ([profile]: string[]): ConfigUseOptions => ({ profile });

export async function runGet(ctx: Ctx, { key: k }: ConfigKeyOptions): Promise<void> {
  const v = profileValue(ctx.settings.config.profiles[ctx.settings.profile.value], k);
  if (v === undefined) throw new UsageError(`${k} is not set in profile ${ctx.settings.profile.value}`);
  await write(ctx.io.stdout, v + '\n');
}

export async function runSet(ctx: Ctx, { key: k, value, insecureStorage }: ConfigSetOptions): Promise<void> {
  let v = value;
  if (SECRET_KEYS.has(k)) {
    if (v !== '-')
      throw new UsageError(`${k} is a secret: give it on standard input with \`svc config set ${k} -\`${k === 'api_key' ? ' or use `svc auth login`' : ''}`);
    v = (await stdinText(ctx.io)).trim();
    if (!v) throw new UsageError(`${k} on standard input is empty`);
    checkCredential(v, 'standard input', k === 'api_key' ? 'API key' : 'environment key');
    addSecret(v);
    const t = { file: ctx.settings.configFile, profile: ctx.settings.profile.value, key: k as SecretKey, env: ctx.io.env, signal: ctx.io.signal };
    const saved = await saveSecret(t, v, insecureStorage);
    if (saved.notice) await ctx.msg(saved.notice);
    await ctx.msg(`set ${k} in profile ${t.profile}${saved.keychain ? ` (in ${saved.keychain})` : ''}`);
    return;
  }
  if (v === undefined) throw new UsageError(`missing value for ${k}`);
  if (k === 'output') parseOutputFormat(v);
  if (k === 'accessible') parseSwitch(v, 'accessible');
  if (k === 'base_url') checkBaseUrl(v, 'base_url');
  // Kept as an absolute path (a command run elsewhere finds it), checked now: a file svc cannot use is exit 2 here.
  if (k === 'ca_file') readCaFile((v = resolve(ctx.io.cwd, v)), 'ca_file');
  const s = ctx.settings;
  await updateConfig(
    s.configFile,
    (data) => {
      (data.profiles[s.profile.value] ??= {})[k] = v;
    },
    ctx.io.signal,
  );
  await ctx.msg(`set ${k} in profile ${s.profile.value}`);
}

export async function runUnset(ctx: Ctx, { key: k }: ConfigKeyOptions): Promise<void> {
  const s = ctx.settings;
  if (SECRET_KEYS.has(k)) {
    const where = await removeSecret({ file: s.configFile, profile: s.profile.value, key: k as SecretKey, env: ctx.io.env, signal: ctx.io.signal });
    await ctx.msg(`unset ${k} in profile ${s.profile.value}${where && where !== s.configFile ? ` (removed from ${where})` : ''}`);
    return;
  }
  await updateConfig(
    s.configFile,
    (data) => {
      delete data.profiles[s.profile.value]?.[k];
    },
    ctx.io.signal,
  );
  await ctx.msg(`unset ${k} in profile ${s.profile.value}`);
}

export async function runList(ctx: Ctx): Promise<void> {
  const s = ctx.settings;
  const p = s.config.profiles[s.profile.value] ?? {};
  const out: Record<string, unknown> = { profile: s.profile.value, config_file: s.configFile };
  for (const k of PROFILE_KEYS) out[k] = profileValue(p, k) ?? null;
  await ctx.out.item(out);
}

export async function runUse(ctx: Ctx, { profile: name }: ConfigUseOptions): Promise<void> {
  const s = ctx.settings;
  // Own members only: `__proto__` and `constructor` are members of every object, never profiles. `default` always is one.
  const profile: unknown = Object.hasOwn(s.config.profiles, name) ? s.config.profiles[name] : undefined;
  if (name !== 'default' && (typeof profile !== 'object' || profile === null))
    throw new UsageError(
      `no profile named "${name}"; known: ${Object.keys(s.config.profiles).join(', ') || 'none'} (create one with \`svc --profile ${name} config set base_url URL\`)`,
    );
  await updateConfig(
    s.configFile,
    (data) => {
      data.current_profile = name;
    },
    ctx.io.signal,
  );
  await ctx.msg(`current profile is now ${name}`);
}

export async function runProfiles(ctx: Ctx): Promise<void> {
  const s = ctx.settings;
  const names = Object.keys(s.config.profiles);
  if (!names.includes('default')) names.unshift('default');
  const rows = names
    .sort((a, b) => (a === 'default' ? -1 : b === 'default' ? 1 : a.localeCompare(b)))
    .map((name) => ({
      name,
      current: name === s.profile.value,
      base_url: shown('base_url', s.config.profiles[name]?.base_url) ?? null,
    }));
  await ctx.out.list(rows, [
    { header: 'NAME', get: (r) => (r.current ? `${r.name} *` : r.name) },
    { header: 'BASE URL', get: (r) => r.base_url },
  ]);
}

export default function build(group: Command, kit: Kit): void {
  const get = group
    .command('get')
    .argument('<key>', `one of ${PROFILE_KEYS.join(', ')}`)
    .description('Print a setting of the current profile (secrets masked)');
  examples(get, ['svc config get base_url']);
  printsText(get, 'it prints the value alone (svc config list -o json prints them all as JSON)');
  get.action(kit.verb(parseConfigKey, runGet));

  const set = group
    .command('set')
    .argument('<key>', `one of ${PROFILE_KEYS.join(', ')}`)
    .argument('[value]', 'the value; - reads it from standard input (required for secrets)')
    .description('Set a setting of the current profile (a secret goes to the system keychain where there is one)');
  addFlags(set, CONFIG_SET_FLAGS);
  examples(set, ['svc config set base_url https://api.example.com', 'svc config set output json', 'svc config set environment_key - < env-key.txt']);
  set.action(kit.verb(parseConfigSet, runSet));

  const unset = group.command('unset').argument('<key>', 'the setting to remove').description('Remove a setting from the current profile');
  examples(unset, ['svc config unset output']);
  unset.action(kit.verb(parseConfigKey, runUnset));

  const list = group.command('list').description('Show the settings of the current profile (secrets masked)');
  examples(list, ['svc config list', 'svc config list --profile staging -o json']);
  printsNoIds(list, 'settings have no IDs (svc config get KEY prints one value)');
  list.action(kit.verb(noOptions, (ctx) => runList(ctx)));

  const use = group.command('use').argument('<profile>', 'profile name').description('Make a profile the current one');
  examples(use, ['svc config use staging']);
  use.action(kit.verb(parseConfigUse, runUse));

  const profiles = group.command('profiles').description('List the profiles');
  examples(profiles, ['svc config profiles']);
  printsNoIds(profiles, 'profiles have names, not IDs (try --jq)');
  profiles.action(kit.verb(noOptions, (ctx) => runProfiles(ctx)));
}
