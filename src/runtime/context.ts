import { resolve } from 'node:path';
import type { ApiClient } from '../api/client';
import type { Network } from '../api/network';
import { resolveSettings, type GlobalOptions, type OutputFormat, type Settings } from '../config/settings';
import { NoCredentialError } from './errors';
import { write, type Io } from './io';
import { escapeControls } from '../output/controls';
import { OutputWriter } from '../output/writer';
import { pagerFor } from '../output/pager';
import { USER_AGENT } from '../version';

/** What every command's run function receives: settings, IO, the output writer and the API client. */
export class Ctx {
  private _settings?: Settings;
  private _out?: OutputWriter;
  private _api?: ApiClient;
  private _network?: Network;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;

  constructor(
    readonly io: Io,
    readonly globals: GlobalOptions,
  ) {
    this.sleep = io.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = io.now ?? Date.now;
  }

  get settings(): Settings {
    this._settings ??= resolveSettings(this.globals, this.io.env, this.io.stdinIsTTY ?? Boolean(this.io.stdin.isTTY));
    return this._settings;
  }

  get settingsIfResolved(): Settings | undefined {
    return this._settings;
  }

  /** The format in force: explicit (flag or profile), else table on a TTY or with --no-headers, and json otherwise. */
  get format(): OutputFormat {
    return this.settings.output?.value ?? (this.io.stdout.isTTY || !this.settings.table.headers ? 'table' : 'json');
  }

  get out(): OutputWriter {
    this._out ??= new OutputWriter(this.io.stdout, {
      format: this.format,
      jq: this.settings.jq,
      color: this.useColor(this.io.stdout),
      layout: this.settings.table,
      pager: pagerFor(this.io, this.globals.pager !== false),
    });
    return this._out;
  }

  useColor(stream: { isTTY?: boolean }): boolean {
    return this.settings.color ?? Boolean(stream.isTTY);
  }

  /** A message for the user on stderr, its control characters escaped (text from the service must not steer the terminal). */
  msg(line: string): Promise<void> | void {
    return write(this.io.stderr, escapeControls(line) + '\n');
  }

  get canPrompt(): boolean {
    return !this.settings.noInput;
  }

  /** The resolved API key; none is exit 4, before any request (or view) starts. */
  apiKey(): string {
    const key = this.settings.apiKey;
    if (!key) throw new NoCredentialError();
    return key.value;
  }

  /** The API client with the resolved API key. */
  async api(): Promise<ApiClient> {
    this._api ??= await this.client(this.apiKey());
    return this._api;
  }

  /**
   * The proxy variables and extra certificates of every request of this run (docs/decisions/network.md). A CA file
   * that cannot be used is exit 2 before the first request.
   */
  async network(): Promise<Network> {
    if (!this._network) {
      const { readCaFile } = await import('../api/network');
      const ca = this.settings.caFile;
      const file = ca && resolve(this.io.cwd, ca.value);
      this._network = { env: this.io.env, ca: ca && file ? { file, pems: readCaFile(file, ca.where) } : undefined };
    }
    return this._network;
  }

  /**
   * A client for any credential (environment work keys, verification of a new key). Requests abort on Ctrl-C
   * unless `outliveSignal`: a worker writes results and stops rows after the first signal. `signal` replaces Ctrl-C as
   * what aborts them (a bounded request made after the signal).
   */
  async client(
    credential: string | undefined,
    baseUrl = this.settings.baseUrl.value,
    o: { outliveSignal?: boolean; signal?: AbortSignal } = {},
  ): Promise<ApiClient> {
    const { ApiClient } = await import('../api/client');
    const s = this.settings;
    const network = await this.network();
    return new ApiClient({
      network,
      baseUrl,
      credential,
      apiVersion: s.apiVersion,
      userAgent: USER_AGENT,
      maxRetries: s.maxRetries,
      timeoutMs: s.timeoutMs,
      debug: s.debug ? (line) => void this.msg(line) : undefined,
      debugApi: s.debugApi,
      warn: (line) => void this.msg(line),
      sleep: this.sleep,
      now: this.now,
      signal: o.signal ?? (o.outliveSignal ? undefined : this.io.signal),
    });
  }
}
