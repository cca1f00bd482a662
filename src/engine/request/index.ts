/**
 * What the model is sent (THR-4, DEF-6, EXE-9, KIND-8, MSG-10): the request's messages built from
 * the log, each past turn converted once per log; which messages of a list a request shows (the main
 * conversation, or a nested run's own); compaction, which keeps a request within the model's context
 * window by summarising earlier turns; the system text; the tools offered and their function-tool
 * shape; tool images as image parts; the files of users' messages as image, PDF or text parts, or
 * notes; the model settings and whether an answer matches the response format. It sits above
 * conversation/, which says what the log holds, and is used by step/, turn/ and subagents/.
 */

export { fileReading } from './attachment-parts.js';
export type { CompactionMark } from './compaction.js';
export { compactConversation, estimateTokens, latestCompaction, requestBudget } from './compaction.js';
export { buildModelMessages, sentFrom, turnStartIndex } from './context.js';
export { MessageFiles } from './message-files.js';
export { requestSettings, responseFormatProblem } from './model-settings.js';
export { modelTools, offerChanges, offeredTools } from './offered-tools.js';
export { inMainConversation, notSilent, type Shown } from './shown.js';
export { systemText } from './system-prompt.js';
export { ToolImages } from './tool-images.js';
