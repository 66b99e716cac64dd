// `npm run build` / `prepack`: the bundle into dist/.
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

await bundle(fileURLToPath(new URL('../dist', import.meta.url)));
