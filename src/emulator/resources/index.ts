import type { Emulator } from '../server';
import { registerAgents } from './agents';
import { registerSessions } from './sessions';
import { registerEnvironments } from './environments';
import { registerWork } from './work';
import { registerArtifacts } from './artifacts';
import { registerDreams } from './dreams';
import { registerFiles } from './files';
import { registerMemory } from './memory';
import { registerPlugins } from './plugins';
import { registerSkills } from './skills';
import { registerTriggers } from './triggers';
import { registerVaults } from './vaults';

/** Every resource module of the emulator; each registers its routes on the emulator's router. */
export const MODULES: Array<(emu: Emulator) => void> = [
  registerAgents,
  registerSessions,
  registerEnvironments,
  registerWork,
  registerVaults,
  registerSkills,
  registerPlugins,
  registerMemory,
  registerDreams,
  registerTriggers,
  registerArtifacts,
  registerFiles,
];
