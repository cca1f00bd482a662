/** The ids of seed 003's locked fundamental tools (LOCK-1): models have learned them by name. */
export const LOCKED_TOOL_IDS = [
  'read',
  'write',
  'edit',
  'glob',
  'grep',
  'bash',
  'todo',
  'task',
  'question',
  'web_search',
  'web_fetch',
  'skill',
  'tool_search',
] as const;
