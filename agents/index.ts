/**
 * The example application: every definition the Worker serves. A tool's name is its key here, and a
 * thread endpoint's key is the path of its file under api/, an effect's the name of its file under effects/;
 * a hook is named by its own id, which prompts and agents list in `hooks`.
 */
import assistantAgent, { assistantAgent as assistantOn } from './agents/assistant';
import brainstormAgent from './agents/brainstorm';
import unitsAgent from './agents/units';
import workspaceAgent from './agents/workspace';
import summary from './api/summary';
import send_reminder from './effects/send_reminder';
import trim_history from './hooks/trim_history';
import defaultModel from './models/default';
import { claude, gemini, llama } from './models/others';
import assistantPrompt, { assistantPrompt as assistantPromptOn } from './prompts/assistant';
import { critic, proposer } from './prompts/brainstorm';
import summarizePrompt from './prompts/summarize';
import unitsPrompt from './prompts/units';
import workspacePrompt from './prompts/workspace';
import codeReview from './skills/code-review';
import fetch_data from './tools/fetch_data';
import get_current_time from './tools/get_current_time';
import remind_me from './tools/remind_me';
import search_knowledge_base from './tools/search_knowledge_base';

export const tools = { get_current_time, search_knowledge_base, fetch_data, remind_me };
/** The assistant on each of the other providers' models (see models/others.ts). */
const onOtherModels = [
  { name: 'assistant_claude', title: 'Assistant (Claude)', model: 'claude' },
  { name: 'assistant_gemini', title: 'Assistant (Gemini)', model: 'gemini' },
  { name: 'assistant_llama', title: 'Assistant (Workers AI)', model: 'llama' },
];

export const prompts = [
  assistantPrompt,
  ...onOtherModels.map(({ name, model }) => assistantPromptOn(name, model)),
  workspacePrompt,
  summarizePrompt,
  proposer,
  critic,
  unitsPrompt,
];
export const agents = [
  assistantAgent,
  ...onOtherModels.map(({ name, title }) => assistantOn(name, title)),
  workspaceAgent,
  brainstormAgent,
  unitsAgent,
];
export const models = [defaultModel, claude, gemini, llama];
export const skills = [codeReview];
/** Thread endpoints, by the path of their file under api/ without `.ts`: GET /api/threads/:id/summary. */
export const endpoints = { summary };
/** Effects, by the name of their file under effects/: scheduled with state.scheduleEffect('send_reminder', ...). */
export const effects = { send_reminder };
/** Hooks, each run only where a prompt or an agent names its id: the workspace prompt trims long histories. */
export const hooks = [trim_history];
