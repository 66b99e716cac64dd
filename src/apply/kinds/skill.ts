import { skills } from '../../api/skills';
import type { KindSpec } from '../types';
import { KIND_NAMES } from '../names';

export const skill: KindSpec = {
  ...KIND_NAMES.Skill,
  api: skills,
  // Skills have no update: `description` is sent with the first upload only, and content changes become versions.
  fields: ['name', 'description', 'metadata'],
  applyFields: ['path'],
  readOnly: ['latest_version', 'categories'],
  required: ['name', 'path'],
};
