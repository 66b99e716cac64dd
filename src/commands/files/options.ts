import type { Command } from 'commander';
import type { Flags } from '../../cli/action';

/** `--no-version-header` on every files verb: the compatibility format of Versioning rule 2. */
export function addCompatOption(cmd: Command): Command {
  return cmd.option(
    '--no-version-header',
    'omit svc-api-version: compatibility format (200 instead of 201/204, status and status_details; such files cannot be mounted on sessions)',
  );
}

/** False only with `--no-version-header`. */
export const versioned = (flags: Flags): boolean => flags.versionHeader !== false;
