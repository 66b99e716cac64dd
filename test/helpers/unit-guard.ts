/**
 * Setup of the unit tier: a unit test opens no socket and starts no process. Either one fails the test with a line
 * saying so, so a test that needs them moves to its tier (test/helpers/tiers.ts) instead of slowing the inner loop.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const refuse = (what: string) => () => {
  throw new Error(`a unit test may not ${what}: it belongs in the integration or e2e tier (test/helpers/tiers.ts)`);
};

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const)
  Object.assign(childProcess, { [name]: refuse(`start a process (child_process.${name})`) });
net.Socket.prototype.connect = refuse('open a connection') as never;
net.Server.prototype.listen = refuse('listen on a port') as never;
syncBuiltinESMExports();
