import type { SpawnSyncReturns } from 'node:child_process';
import { NoCredentialError } from '../runtime/errors';
import { findProgram, isExecutableFile } from '../fs/find-program';
import { MASK, redact } from '../text/redact';
import type { Env } from './paths';

/*
 * The system keychain through the platform's own tool in a child process (`secret-tool` for the Secret Service on
 * Linux, `security` on macOS, Windows PowerShell for the Credential Manager), not a native addon: the package stays free of runtime dependencies and works from the
 * single executable, and a child can be stopped after KEYCHAIN_TIMEOUT_MS where a native call cannot. The secret goes
 * to the tool on stdin and comes back on stdout: never in an argument, which any local user can read.
 * An entry is found by svc's service name and a random ID that the profile records (`api_key_keychain`), so two config
 * files never share an entry.
 */

export const KEYCHAIN_TIMEOUT_MS = 3000;
const SERVICE = 'svc';

/** A keychain that did not answer in time, or failed at a read the profile depends on: exit 4, naming it. */
export class KeychainError extends NoCredentialError {
  override name = 'KeychainError';
}

/** A keychain that answered with a failure: at login, the reason the key goes to the file instead. */
export class KeychainUnavailable extends Error {
  override name = 'KeychainUnavailable';
}

export interface Keychain {
  /** What `auth status` and messages call it. */
  readonly name: string;
  store(id: string, label: string, secret: string): void;
  /** The secret, or undefined when there is no such entry. */
  read(id: string): string | undefined;
  /** Removes the entry; true when there was one. */
  remove(id: string): boolean;
}

/** The platform's keychain where its tool and (on Linux) a session bus are there; otherwise the reason there is none. */
export function systemKeychain(env: Env, platform: NodeJS.Platform = process.platform): Keychain | string {
  if (platform === 'linux') {
    // No session bus: secret-tool would try to start one through X11, which a server or container does not have.
    if (!env.DBUS_SESSION_BUS_ADDRESS) return 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset)';
    const tool = findProgram('secret-tool', env);
    return tool ? secretService(tool, env) : 'no secret-tool on PATH (Debian: apt-get install libsecret-tools)';
  }
  if (platform === 'darwin') {
    const tool = findProgram('security', env) ?? (isExecutableFile('/usr/bin/security') ? '/usr/bin/security' : undefined);
    return tool ? macKeychain(tool, env) : 'no security tool found';
  }
  if (platform === 'win32') {
    // Windows PowerShell's own place first, so a powershell.exe earlier on PATH is not handed the secret.
    const system = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
    const tool = isExecutableFile(system) ? system : findProgram('powershell.exe', env);
    return tool ? windowsVault(tool, env) : 'no Windows PowerShell (powershell.exe) found';
  }
  return `svc does not use the keychain on ${platform} yet`;
}

/** The Secret Service (GNOME Keyring, KeePassXC, KWallet's bridge) through libsecret's secret-tool. */
function secretService(tool: string, env: Env): Keychain {
  const name = 'the Secret Service';
  const attrs = (id: string) => ['service', SERVICE, 'id', id];
  return {
    name,
    store(id, label, secret) {
      const r = run(name, tool, ['store', '--label', label, ...attrs(id)], env, secret);
      if (r.status !== 0) throw new KeychainUnavailable(`${name} refused the key: ${firstLine(r.stderr)}`);
    },
    read(id) {
      const r = run(name, tool, ['lookup', ...attrs(id)], env);
      if (r.status === 0) return r.stdout.replace(/\n$/, '');
      // secret-tool says nothing and exits 1 for a missing entry.
      if (!r.stderr.trim()) return undefined;
      throw new KeychainError(`cannot read the key from ${name}: ${firstLine(r.stderr)}`);
    },
    remove(id) {
      if (this.read(id) === undefined) return false;
      const r = run(name, tool, ['clear', ...attrs(id)], env);
      if (r.status !== 0) throw new KeychainError(`cannot remove the key from ${name}: ${firstLine(r.stderr)}`);
      return true;
    },
  };
}

/** The login keychain on macOS. `security -i` reads its command on stdin, so the secret is in no argument. */
function macKeychain(tool: string, env: Env): Keychain {
  const name = 'the macOS Keychain';
  const quote = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;
  return {
    name,
    store(id, label, secret) {
      const line = `add-generic-password -U -s ${quote(SERVICE)} -a ${quote(id)} -l ${quote(label)} -w ${quote(secret)}\n`;
      const r = run(name, tool, ['-i'], env, line);
      // Not its words: `security -i` may echo the command, which holds the secret.
      if (r.status !== 0 || r.stderr.trim()) throw new KeychainUnavailable(`${name} refused the key (security exited ${r.status})`);
    },
    read(id) {
      const r = run(name, tool, ['find-generic-password', '-s', SERVICE, '-a', id, '-w'], env);
      if (r.status === 0) return r.stdout.replace(/\n$/, '');
      // 44: errSecItemNotFound.
      if (r.status === 44) return undefined;
      throw new KeychainError(`cannot read the key from ${name}: ${firstLine(r.stderr)}`);
    },
    remove(id) {
      const r = run(name, tool, ['delete-generic-password', '-s', SERVICE, '-a', id], env);
      if (r.status === 0) return true;
      if (r.status === 44) return false;
      throw new KeychainError(`cannot remove the key from ${name}: ${firstLine(r.stderr)}`);
    },
  };
}

/**
 * The Windows Credential Manager, through the PasswordVault of Windows PowerShell 5.1 (in every Windows since 10;
 * PowerShell 7 has no WinRT types): no type compiled at each call, and the secret on stdin and stdout only, in base64 so
 * no console code page touches it. A missing entry exits 44, as `security` does. Not run on Windows by svc's tests (none here): the script is checked by a stand-in.
 */
function windowsVault(tool: string, env: Env): Keychain {
  const name = 'the Windows Credential Manager';
  // The ID is a random UUID (secrets.ts), checked here because it is written into the script.
  const safe = (id: string) => {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new KeychainError(`a keychain entry ID of another form: ${JSON.stringify(id)}`);
    return id;
  };
  const script = (body: string) =>
    "$ErrorActionPreference = 'Stop'; " +
    '$null = [Windows.Security.Credentials.PasswordVault, Windows.Security.Credentials, ContentType = WindowsRuntime]; ' +
    '$vault = New-Object Windows.Security.Credentials.PasswordVault; ' +
    body;
  // Retrieve throws 0x80070490 (element not found) for a missing entry.
  const find = (id: string) =>
    `try { $c = $vault.Retrieve('${SERVICE}', '${safe(id)}') } catch { if ($_.Exception.HResult -eq -2147023728) { exit 44 } else { throw } }; `;
  const ps = (body: string, input?: string) => run(name, tool, ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', script(body)], env, input);
  return {
    name,
    store(id, _label, secret) {
      const r = ps(
        '$s = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String([Console]::In.ReadToEnd().Trim())); ' +
          `$vault.Add((New-Object Windows.Security.Credentials.PasswordCredential('${SERVICE}', '${safe(id)}', $s)))`,
        Buffer.from(secret, 'utf8').toString('base64'),
      );
      if (r.status !== 0) throw new KeychainUnavailable(`${name} refused the key: ${firstLine(r.stderr)}`);
    },
    read(id) {
      const r = ps(`${find(id)}$c.RetrievePassword(); [Console]::Out.Write([Convert]::ToBase64String([Text.Encoding]::UTF8.GetBytes($c.Password)))`);
      if (r.status === 0) return Buffer.from(r.stdout.trim(), 'base64').toString('utf8');
      if (r.status === 44) return undefined;
      throw new KeychainError(`cannot read the key from ${name}: ${firstLine(r.stderr)}`);
    },
    remove(id) {
      const r = ps(`${find(id)}$vault.Remove($c)`);
      if (r.status === 0) return true;
      if (r.status === 44) return false;
      throw new KeychainError(`cannot remove the key from ${name}: ${firstLine(r.stderr)}`);
    },
  };
}

/** Runs the tool, stopped after KEYCHAIN_TIMEOUT_MS: a keychain waiting on an unlock prompt no one sees never hangs svc. */
function run(name: string, tool: string, args: string[], env: Env, input?: string): SpawnSyncReturns<string> {
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const r = spawnSync(tool, args, {
    env: env as NodeJS.ProcessEnv,
    input: input ?? '',
    encoding: 'utf8',
    timeout: KEYCHAIN_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    stdio: 'pipe',
    maxBuffer: MAX_ANSWER_BYTES,
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
    throw new KeychainError(`${name} did not answer in ${KEYCHAIN_TIMEOUT_MS / 1000} s (is it locked, waiting for a password?)`);
  }
  // A tool that exits before reading its input (no daemon to hand the key to) leaves svc's write to its stdin with
  // EPIPE: it ran, and its exit status and stderr say why.
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  // More than any key: an answer svc will not take as one (a read the profile depends on: exit 4, naming it).
  if (code === 'ENOBUFS') throw new KeychainError(`${name} answered with more than ${MAX_ANSWER_BYTES / MiB} MiB, which is no key`);
  if (r.error && !(code === 'EPIPE' && r.status !== null)) throw new KeychainUnavailable(`cannot run ${tool}: ${code ?? r.error.message}`);
  // The tool's words go into svc's messages: what it was given (the key) never does, nor any secret svc knows.
  const clean = (text: string) => redact(input ? text.split(input).join(MASK) : text);
  return { ...r, stdout: r.stdout, stderr: clean(r.stderr ?? '') };
}

const MiB = 1024 * 1024;
const MAX_ANSWER_BYTES = MiB;

const firstLine = (text: string): string => text.trim().split('\n')[0]?.slice(0, 200) || 'no reason given';
