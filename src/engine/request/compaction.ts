/**
 * Context compaction (THR-4): a model declares its context window; when a request would no longer
 * fit, the conversation before the current turn is summarised by a model step (by the model itself,
 * or the cheaper one its `compactWith` names) instead of being sent whole, and never a request the
 * provider would refuse with a 400. The summary is stored as a silent system message marking the
 * last message it covers; the original messages stay in the log, for clients and for the record,
 * and every later request sends the summary in their place (context.ts).
 */
import type { Message, ModelDefinition, ModelMessage, PromptDefinition } from '../../spec/index.js';
import type { FrameSink, ModelTool, Provider, ThreadStore } from '../ports/index.js';
import { belongsWith, inMainConversation, type Shown } from './shown.js';

/** What the marker's metadata holds. */
export interface CompactionMark {
  /** The seq of the last message the summary replaces. */
  through_seq: number;
  /** The model that wrote the summary. */
  model: string;
}

/**
 * A rough token count: four characters a token, an image a thousand (its data URL is not sent as
 * text), a PDF a thousand per 50 KB of it, at least a thousand (providers read its pages as text
 * and images; the count of pages is not known here).
 */
const CHARS_PER_TOKEN = 4;
const TOKENS_PER_IMAGE = 1000;
const PDF_BYTES_PER_TOKEN = 50;

function pdfTokens(fileData: string): number {
  const bytes = ((fileData.length - fileData.indexOf(',') - 1) * 3) / 4;
  return Math.max(TOKENS_PER_IMAGE, Math.ceil(bytes / PDF_BYTES_PER_TOKEN));
}

export function estimateTokens(messages: readonly ModelMessage[], tools: readonly ModelTool[]): number {
  let chars = JSON.stringify(tools).length;
  let images = 0;
  let files = 0;
  for (const message of messages) {
    if (typeof message.content === 'string' || message.content === null) {
      chars += (message.content ?? '').length + 16;
    } else {
      for (const part of message.content) {
        if (part.type === 'text') chars += part.text.length;
        else if (part.type === 'image_url') images++;
        else files += pdfTokens(part.file.file_data);
      }
    }
    if (message.role === 'assistant' && message.tool_calls) chars += JSON.stringify(message.tool_calls).length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + images * TOKENS_PER_IMAGE + files;
}

/** The tokens a request may use: the window, less what the answer needs. */
export function requestBudget(model: ModelDefinition, maxOutputTokens: number | undefined): number | null {
  if (!model.contextWindow) return null;
  const reserved = maxOutputTokens ?? Math.min(4096, Math.floor(model.contextWindow / 4));
  return model.contextWindow - reserved;
}

type Compaction = { index: number; mark: CompactionMark; summary: string };

/**
 * What each log array has been scanned for: logs only grow, so a step looks at its new messages
 * only, and the cost of a step does not grow with the history.
 */
const scanned = new WeakMap<readonly Message[], { length: number; shown: Shown; found: Compaction | null }>();

/**
 * The newest compaction marker of the conversation `shown` selects (by default the main one; a
 * nested run's markers are its own), or null.
 */
export function latestCompaction(log: readonly Message[], shown: Shown = inMainConversation): Compaction | null {
  const known = scanned.get(log);
  const fresh = !known || known.length > log.length || known.shown !== shown;
  let found = fresh ? null : known.found;
  for (let index = fresh ? 0 : known.length; index < log.length; index++) {
    const message = log[index] as Message;
    const mark = message.metadata?.compaction as CompactionMark | undefined;
    if (mark && message.role === 'system' && belongsWith(shown, message))
      found = { index, mark, summary: message.content ?? '' };
  }
  scanned.set(log, { length: log.length, shown, found });
  return found;
}

const INSTRUCTIONS =
  "You compact a conversation so it can go on within a limited context. Write a faithful summary of the conversation below: the user's goals and requests, decisions taken, facts and results established (names, numbers, paths, identifiers exactly), tool calls made and what they returned, and what is still open. Write it as notes for whoever continues the conversation; do not address the user.";

export interface CompactionInput {
  /** The log as the loop sees it. */
  log: readonly Message[];
  /** Where the current turn starts in `log`: everything before it may be summarised. */
  turnStart: number;
  store: ThreadStore;
  emit: FrameSink;
  /** The model that writes the summary, and its provider. */
  model: ModelDefinition;
  provider: Provider;
  signal: AbortSignal;
  /** Builds the model messages of a slice of the log, as the prompt would send them. */
  render(log: readonly Message[]): ModelMessage[];
  prompt: PromptDefinition;
  /** Which messages of `log` are the conversation's (default: the main conversation). */
  shown?: Shown;
}

/**
 * Summarises the conversation before the current turn (after the previous summary, which it takes
 * in) and stores the marker; returns it with the step's usage, or null when there is nothing before
 * the current turn to summarise.
 */
export async function compactConversation(input: CompactionInput) {
  const shown = input.shown ?? inMainConversation;
  const previous = latestCompaction(input.log, shown);
  const start = previous ? previous.index + 1 : 0;
  const older = input.log.slice(start, input.turnStart).filter(shown);
  const last = older[older.length - 1];
  if (!last) return null;
  const earlier: ModelMessage[] = previous
    ? [{ role: 'system', content: `Summary of the conversation before:\n${previous.summary}` }]
    : [];
  const response = await input.provider.complete({
    model: input.model.model ?? input.model.name,
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      ...earlier,
      ...input.render(older),
      { role: 'user', content: 'Write the summary of the conversation above now.' },
    ],
    tools: [],
    signal: input.signal,
  });
  const mark: CompactionMark = { through_seq: last.seq, model: input.model.name };
  const message = input.store.append({
    role: 'system',
    content: response.text,
    silent: true,
    metadata: { compaction: mark, model: response.model, usage: response.usage },
  });
  input.emit({ type: 'message', message });
  return { message, usage: response.usage };
}
