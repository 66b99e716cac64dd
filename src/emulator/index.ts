// The emulator as a package: what the CLI (`svc emulator`, `svc demo`) and tests use of it.
export { Emulator, startEmulator, type EmulatorOptions } from './server';
export { seedFleet, type Fleet, type FleetOptions, type FleetState } from './fleet';
export { parseFaults, type FaultConfig } from './faults';
