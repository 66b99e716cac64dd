import { UsageError } from '../runtime/errors';
import { bounded } from '../text/duration';
import { DEFAULT_LAYOUT, parseLayoutFormat, type TableLayout } from '../output/layout';
import { API_VERSION } from '../wire/version';
import { KeychainError, systemKeychain } from './keychain';
import { KEYCHAIN_REFS, type ConfigData, type Profile } from './shape';
import { readConfig } from './store';
import { configFile, type Env } from './paths';
import { checkApiVersion, checkBaseUrl, checkCredential, checked, describeOrigin } from './validate';

export type Source = 'flag' | 'env' | 'profile' | 'default';
export const OUTPUT_FORMATS = ['table', 'wide', 'custom-columns=', 'json', 'ndjson', 'jsonl', 'yaml', 'id'] as const;
export type OutputFormat = 'table' | 'json' | 'ndjson' | 'yaml' | 'id';

/** Where the emulator listens by default; the service's own address comes from config or SVC_BASE_URL. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';
export const DEFAULT_MAX_RETRIES = 3;

/** Global options as commander parses them. */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
  output?: string;
  quiet?: boolean;
  jq?: string;
  /** `--debug` (true) or `--debug=api` ('api'). */
  debug?: boolean | 'api';
  color?: boolean;
  /** `--no-headers` (false). */
  headers?: boolean;
  /** `--no-pager` (false). */
  pager?: boolean;
  timeout?: string;
  maxRetries?: string;
  input?: boolean;
}

export interface Setting<T> {
  value: T;
  source: Source;
  /** A profile's secret read from the system keychain: the keychain's name. */
  keychain?: string;
}

export interface Settings {
  configFile: string;
  config: ConfigData;
  profile: Setting<string>;
  baseUrl: Setting<string>;
  apiKey?: Setting<string>;
  environmentKey?: Setting<string>;
  apiVersion: string;
  /** The format asked for explicitly (flag, profile), or undefined to use the TTY-aware default. */
  output?: Setting<OutputFormat>;
  /** The columns and header line of a table (`-o wide`, `-o custom-columns=…`, `--no-headers`). */
  table: TableLayout;
  jq?: string;
  debug: boolean;
  /** SVC_DEBUG=api or --debug=api: full headers and bodies in the debug log, secrets masked. */
  debugApi: boolean;
  color: boolean | undefined;
  timeoutMs?: number;
  maxRetries: number;
  noInput: boolean;
  /** SVC_CA_FILE or the profile's `ca_file`: PEM certificates trusted beside Node's own (docs/decisions/network.md). */
  caFile?: Setting<string> & { where: string };
  /** SVC_ACCESSIBLE or the profile's `accessible`: numbered questions and plain appended lines, never a redrawn screen. */
  accessible: boolean;
}

/** Resolves every setting: flag > environment variable > profile > default. */
export function resolveSettings(opts: GlobalOptions, env: Env, stdinIsTTY: boolean): Settings {
  const file = configFile(env);
  const config = readConfig(file);
  const profile = pick<string>(opts.profile, env.SVC_PROFILE, config.current_profile, 'default');
  const p: Profile = config.profiles[profile.value] ?? {};
  const outputRaw = opts.quiet ? { value: 'id', source: 'flag' as Source } : pickOptional(opts.output, undefined, p.output);
  const origin = { profile: profile.value, file };
  // Checked when first read, before any request: a command that never sends one (config set, to fix a
  // bad profile) is not stopped by a bad URL or key.
  const baseUrl = once(() =>
    checked(
      pick(opts.baseUrl, env.SVC_BASE_URL, p.base_url, DEFAULT_BASE_URL),
      { ...origin, flag: '--base-url', env: 'SVC_BASE_URL', key: 'base_url' },
      checkBaseUrl,
    ),
  );
  const apiKey = once(() =>
    checked(
      pickOptional(opts.apiKey, env.SVC_API_KEY, undefined) ?? profileSecret(p, 'api_key', profile.value, env),
      { ...origin, flag: '--api-key', env: 'SVC_API_KEY', key: 'api_key' },
      (v, where) => checkCredential(v, where, 'API key'),
    ),
  );
  const environmentKey = once(() =>
    checked(
      pickOptional(undefined, env.SVC_ENVIRONMENT_KEY, undefined) ?? profileSecret(p, 'environment_key', profile.value, env),
      { ...origin, env: 'SVC_ENVIRONMENT_KEY', key: 'environment_key' },
      (v, where) => checkCredential(v, where, 'environment key'),
    ),
  );
  const apiVersion = once(() => checkApiVersion(env.SVC_API_VERSION || API_VERSION));
  // Read when a view or prompt asks: a bad profile value does not stop `config set accessible` from fixing it.
  const accessible = once(() => {
    const s = pickOptional(undefined, env.SVC_ACCESSIBLE, p.accessible);
    return s ? parseSwitch(s.value, s.source === 'env' ? 'SVC_ACCESSIBLE' : `accessible (in profile ${profile.value})`) : false;
  });
  const caFile = pickOptional(undefined, env.SVC_CA_FILE, p.ca_file);
  return {
    configFile: file,
    config,
    profile,
    get baseUrl() {
      return baseUrl();
    },
    get apiKey() {
      return apiKey();
    },
    get environmentKey() {
      return environmentKey();
    },
    get apiVersion() {
      return apiVersion();
    },
    output: outputRaw && { value: parseOutputFormat(outputRaw.value, outputRaw.source), source: outputRaw.source },
    table: tableLayout(outputRaw?.value, opts.headers !== false),
    jq: opts.jq,
    debug: Boolean(opts.debug) || env.SVC_DEBUG === '1' || env.SVC_DEBUG === 'api',
    debugApi: opts.debug === 'api' || env.SVC_DEBUG === 'api',
    color: colorSetting(opts, env),
    timeoutMs: opts.timeout === undefined ? undefined : parseSeconds(opts.timeout, '--timeout') * 1000,
    maxRetries: parseCount(opts.maxRetries ?? env.SVC_MAX_RETRIES ?? String(DEFAULT_MAX_RETRIES), '--max-retries'),
    noInput: opts.input === false || !stdinIsTTY || Boolean(env.CI),
    get accessible() {
      return accessible();
    },
    caFile: caFile && { ...caFile, where: describeOrigin(caFile, { ...origin, env: 'SVC_CA_FILE', key: 'ca_file' }) },
  };
}

/**
 * Colour by the conventions, strongest first: --no-color, NO_COLOR (no-color.org), FORCE_COLOR or CLICOLOR_FORCE
 * not 0 (on even piped), CLICOLOR=0 (off); undefined leaves it to whether the stream is a terminal.
 */
function colorSetting(opts: GlobalOptions, env: Env): boolean | undefined {
  const on = (v: string | undefined) => Boolean(v) && v !== '0';
  if (opts.color === false || env.NO_COLOR) return false;
  if (on(env.FORCE_COLOR) || on(env.CLICOLOR_FORCE)) return true;
  return env.CLICOLOR === '0' ? false : undefined;
}

const SWITCH_ON = ['1', 'true', 'yes', 'on'];
const SWITCH_OFF = ['0', 'false', 'no', 'off'];

/** An on/off setting: 1, true, yes, on or 0, false, no, off; anything else is exit 2 naming the setting. */
export function parseSwitch(value: string, name: string): boolean {
  const v = value.trim().toLowerCase();
  if (SWITCH_ON.includes(v)) return true;
  if (SWITCH_OFF.includes(v)) return false;
  throw new UsageError(`invalid ${name} "${value}": use 1 or 0 (true or false)`);
}

/** `-o wide` and `-o custom-columns=…` are tables of other columns: every check of a table format holds for them. */
export function parseOutputFormat(v: string, source: Source = 'flag'): OutputFormat {
  if (v === 'jsonl') return 'ndjson';
  if (v === 'table' || parseLayoutFormat(v)) return 'table';
  if ((OUTPUT_FORMATS as readonly string[]).includes(v)) return v as OutputFormat;
  const where = source === 'profile' ? " (from the profile's output setting)" : '';
  throw new UsageError(`invalid output format "${v}"${where}: use one of table, wide, custom-columns=HEADER:.path,…, json, ndjson, jsonl, yaml, id`);
}

/** The table's layout; `--no-headers` with a format that has no header line would change nothing, so it is exit 2. */
function tableLayout(output: string | undefined, headers: boolean): TableLayout {
  const columns = output === undefined ? 'default' : (parseLayoutFormat(output) ?? 'default');
  if (!headers && output !== undefined && parseOutputFormat(output) !== 'table')
    throw new UsageError(`--no-headers drops a table's header line: it does not apply to -o ${output === 'id' ? 'id (-q)' : output}`);
  return headers && columns === 'default' ? DEFAULT_LAYOUT : { columns, headers };
}

/**
 * A profile's secret: from the file, else from the keychain entry the profile names. The keychain is asked only here,
 * so a flag or environment variable never touches it.
 */
function profileSecret(p: Profile, key: 'api_key' | 'environment_key', profile: string, env: Env): Setting<string> | undefined {
  if (p[key]) return { value: p[key], source: 'profile' };
  const id = p[KEYCHAIN_REFS[key]];
  if (!id) return undefined;
  const what = key === 'api_key' ? 'API key' : 'environment key';
  const kc = systemKeychain(env);
  if (typeof kc === 'string') {
    throw new KeychainError(`the ${what} of profile ${profile} is in the system keychain, which svc cannot reach here: ${kc}`);
  }
  const value = kc.read(id);
  if (value === undefined) {
    const fix = key === 'api_key' ? 'svc auth login' : `svc config set ${key} -`;
    throw new KeychainError(`the ${what} of profile ${profile} is no longer in ${kc.name}: run \`${fix}\` again`);
  }
  return { value, source: 'profile', keychain: kc.name };
}

/** Computes on first use; a failure is kept too, so reporting it never asks a slow keychain again. */
function once<T>(f: () => T): () => T {
  let result: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  return () => {
    if (!result) {
      try {
        result = { ok: true, value: f() };
      } catch (error) {
        result = { ok: false, error };
      }
    }
    if (!result.ok) throw result.error;
    return result.value;
  };
}

function pick<T>(flag: T | undefined, env: T | undefined, profile: T | undefined, dflt: T): Setting<T> {
  return pickOptional(flag, env, profile) ?? { value: dflt, source: 'default' };
}

function pickOptional<T>(flag: T | undefined, env: T | undefined, profile: T | undefined): Setting<T> | undefined {
  if (flag !== undefined && flag !== '') return { value: flag, source: 'flag' };
  if (env !== undefined && env !== '') return { value: env, source: 'env' };
  if (profile !== undefined && profile !== '') return { value: profile, source: 'profile' };
  return undefined;
}

/** Seconds as a number, or a duration like 90s, 10m, 1h. */
export function parseSeconds(v: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(v.trim());
  if (!m) throw new UsageError(`${flag} takes a duration such as 30, 30s, 10m or 1h (got "${v}")`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const secs = unit === 'ms' ? n / 1000 : unit === 'm' ? n * 60 : unit === 'h' ? n * 3600 : n;
  return bounded(secs * 1000, flag) / 1000;
}

export function parseCount(v: string, flag: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(v.trim())) throw new UsageError(`${flag} takes a whole number (got "${v}")`);
  const n = Number(v);
  if (n < min || n > max) throw new UsageError(`${flag} must be between ${min} and ${max} (got ${n})`);
  return n;
}

/** The last 4 characters, the rest masked: what `auth status` and `config list` show of a secret. */
export function maskSecret(v: string): string {
  return v.length <= 4 ? '****' : `****${v.slice(-4)}`;
}
