import { applyHeavyRunFlags } from '../startup/v8-flags';

/** The environment variables by which Ink (its `is-in-ci` dependency) decides it runs in CI. */
const CI_VARIABLES = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/**
 * Loads Ink and the view's components. Ink decides once, when it is first evaluated, whether it runs in CI
 * (`CI` or `CONTINUOUS_INTEGRATION` set) and then draws only the last frame, at unmount: a live view that shows
 * nothing while the session runs. The live view opens only when stdout is a TTY, so the
 * terminal is the truth here: those variables are hidden while Ink loads and restored at once.
 */
export async function loadInk(): Promise<[typeof import('ink'), typeof import('./components/App')]> {
  // Before yoga's WebAssembly compiles: a view is a long run.
  applyHeavyRunFlags();
  const saved = CI_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const [name] of saved) delete process.env[name];
  try {
    return await Promise.all([import('ink'), import('./components/App')]);
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
