import { redact } from '../text/redact';
import { write, type OutStream } from '../runtime/io';

export type LogFormat = 'text' | 'json';
export type Fields = Record<string, string | number | boolean | undefined>;

/**
 * One line per lifecycle step on stderr. Every line passes through the run's one redaction (text/redact.ts), so a
 * secret the worker registered there (`addSecret`) is masked whatever put it in the line (an error, a tool's output).
 */
export class WorkerLog {
  constructor(
    private readonly stream: OutStream,
    private readonly format: LogFormat,
    private readonly now: () => number = Date.now,
  ) {}

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
    void write(this.stream, redact(line) + '\n');
  }

  private line(level: string, msg: string, fields: Fields): void {
    const time = new Date(this.now()).toISOString();
    const set = Object.entries(fields).filter(([, v]) => v !== undefined);
    const text =
      this.format === 'json'
        ? JSON.stringify({ time, level, msg, ...Object.fromEntries(set) })
        : `${time} ${level} ${msg}${set.map(([k, v]) => ` ${k}=${quote(String(v))}`).join('')}`;
    void write(this.stream, redact(text) + '\n');
  }
}

const quote = (v: string) => (/^[^\s"=]+$/.test(v) ? v : JSON.stringify(v));
