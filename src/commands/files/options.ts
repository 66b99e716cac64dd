import { flagTable, type FlagsOf } from '../../cli/flags';

/** `--no-version-header` on every files verb: the compatibility format of Versioning rule 2. */
export const VERSION_HEADER_FLAGS = flagTable({
  versionHeader: {
    flags: '--no-version-header',
    description: 'omit svc-api-version: compatibility format (200 instead of 201/204, status and status_details; such files cannot be mounted on sessions)',
  },
});

/** False only with `--no-version-header`. */
export const versioned = (flags: FlagsOf<typeof VERSION_HEADER_FLAGS>): boolean => flags.versionHeader !== false;
