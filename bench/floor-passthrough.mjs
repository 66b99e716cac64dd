/** Node's pass-through floor for reading a session stream: each frame's `data` written as received (bench/lib/floor.mjs). */
import { floor } from './lib/floor.mjs';

await floor((m) => m.data);
