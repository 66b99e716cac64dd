import type { Emulator } from '../server';
import { registerAgents } from './agents';
import { registerEnvironments } from './environments';
import { registerWork } from './work';

/** Every resource module of the emulator; each registers its routes on the emulator's router. */
export const MODULES: Array<(emu: Emulator) => void> = [registerAgents, registerEnvironments, registerWork];
