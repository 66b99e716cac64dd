import { beforeAll } from 'vitest';
import { seedFleet, type Fleet, type FleetOptions } from '../../src/emulator/fleet';
import type { Emulator, EmulatorOptions } from '../../src/emulator/server';
import { useEmulator } from './emulator';

export { seedFleet, type Fleet, type FleetOptions };

/**
 * An emulator on port 0 seeded with a fleet (src/emulator/fleet.ts) before the file's tests: running, waiting,
 * failed, idle, archived and working sessions over two agents and a self-hosted environment.
 */
export function useFleet(options: EmulatorOptions = {}, fleet: FleetOptions = {}): { readonly emu: Emulator; readonly fleet: Fleet } {
  const t = useEmulator(options);
  const holder = {} as { emu: Emulator; fleet: Fleet };
  beforeAll(async () => {
    holder.emu = t.emu;
    holder.fleet = await seedFleet(t.emu, fleet);
  }, 60_000);
  return holder;
}
