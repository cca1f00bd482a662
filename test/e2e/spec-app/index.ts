/**
 * An application written against the specification's chapters beyond Tools: hooks, effects, a
 * thread endpoint and the message methods of ThreadState. Each key mirrors the file it comes from.
 */
import notesAgent from './agents/notes';
import summary from './api/summary';
import follow_up from './effects/follow_up';
import redactResults from './hooks/redact_results';
import trimHistory from './hooks/trim_history';
import notesPrompt from './prompts/notes';
import read_vault from './tools/read_vault';
import schedule_follow_up from './tools/schedule_follow_up';
import tidy_messages from './tools/tidy_messages';

export const tools = { schedule_follow_up, tidy_messages, read_vault };
export const hooks = [trimHistory, redactResults];
export const effects = { follow_up };
export const endpoints = { summary };
export const prompts = [notesPrompt];
export const agents = [notesAgent];
