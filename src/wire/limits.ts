export const MiB = 1024 * 1024;
export const LIMITS = {
  jsonBody: 4 * MiB,
  memoryWriteBody: 28 * MiB,
  fileUpload: 100 * MiB,
  skillPackage: 64 * MiB,
  pluginPackage: 64 * MiB,
  pageSizeMin: 1,
  pageSizeMax: 1000,
  pageSizeDefault: 50,
  idempotencyKeyBytes: 255,
  idempotencyReplayMs: 24 * 60 * 60 * 1000,
  pendingInputs: 50,
  heartbeatMs: 30_000,
  triggerSkipPause: 3,
} as const;

export const PLUGIN_CATEGORIES = ['finance', 'productivity', 'creative_3d', 'dev_tools', 'learning', 'featured'] as const;
export const PLUGIN_LIST_SCOPES = ['official', 'project'] as const;
export const CONTROL_EPOCH_PATTERN = /^(0|[1-9][0-9]{0,18})$/;
