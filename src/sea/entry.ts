/**
 * The single executable's main (scripts/sea.mjs): the launcher (src/startup/launch.ts) bundled into one CommonJS
 * file with the command tree, since a SEA's main cannot require files on disk.
 */
import * as tree from '../cli/main';
import { launch } from '../startup/launch';

launch({ tree: () => tree });
