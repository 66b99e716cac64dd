import { write, type OutStream } from '../io';

export type LogFormat = 'text' | 'json';
export type Fields = Record<string, string | number | boolean | undefined>;

const REDACTED = '[redacted]';

/**
 * One line per lifecycle step on stderr. Every secret the worker holds is registered here, and any line that
 * would contain one has it replaced, whatever put it there (an error message, a tool's output).
 */
export class WorkerLog {
  private readonly secrets = new Set<string>();

  constructor(private readonly stream: OutStream, private readonly format: LogFormat, private readonly now: () => number = Date.now) {}

  redact(secret: string): void {
    if (secret) this.secrets.add(secret);
  }

  info(msg: string, fields: Fields = {}): void {
    this.line('info', msg, fields);
  }

  warn(msg: string, fields: Fields = {}): void {
    this.line('warn', msg, fields);
  }

  error(msg: string, fields: Fields = {}): void {
    this.line('error', msg, fields);
  }

  /** A line of a child's output (`--on-work` CMD), prefixed with its row; secrets are scrubbed as everywhere. */
  passthrough(fields: Fields, text: string): void {
    const set = Object.entries(fields).filter(([, v]) => v !== undefined);
    const line =
      this.format === 'json'
        ? JSON.stringify({ time: new Date(this.now()).toISOString(), level: 'info', msg: 'command output', ...Object.fromEntries(set), line: text })
        : `[${set.map(([k, v]) => `${k}=${v}`).join(' ')}] ${text}`;
    void write(this.stream, this.scrub(line) + '\n');
  }

  private line(level: string, msg: string, fields: Fields): void {
    const time = new Date(this.now()).toISOString();
    const set = Object.entries(fields).filter(([, v]) => v !== undefined);
    const text =
      this.format === 'json'
        ? JSON.stringify({ time, level, msg, ...Object.fromEntries(set) })
        : `${time} ${level} ${msg}${set.map(([k, v]) => ` ${k}=${quote(String(v))}`).join('')}`;
    void write(this.stream, this.scrub(text) + '\n');
  }

  private scrub(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join(REDACTED);
    return out;
  }
}

const quote = (v: string) => (/^[^\s"=]+$/.test(v) ? v : JSON.stringify(v));
