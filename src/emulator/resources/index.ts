import type { Emulator } from '../server';
import { registerAgents } from './agents';
import { registerArtifacts } from './artifacts';
import { registerDreams } from './dreams';
import { registerEnvironments } from './environments';
import { registerFiles } from './files';
import { registerMemory } from './memory';
import { registerPlugins } from './plugins';
import { registerSkills } from './skills';
import { registerTriggers } from './triggers';
import { registerVaults } from './vaults';
import { registerWork } from './work';

/** Every resource module of the emulator; each registers its routes on the emulator's router. */
export const MODULES: Array<(emu: Emulator) => void> = [registerAgents, registerEnvironments, registerWork,
  registerVaults, registerSkills, registerPlugins, registerMemory, registerDreams, registerTriggers, registerArtifacts, registerFiles];
