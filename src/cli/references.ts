// Moved to the API layer, where apply reads it too; kept so the commands and tests that import it from here still do.
export { checkPluginReferences, checkReferences, checkSkillReferences } from '../api/checks/references';
