/**
 * The Workers AI provider (THR-4): one model step through the Worker's AI binding,
 * `env.AI.run(model, inputs, { signal })`. Text and tool calls are streamed (the binding streams
 * tool calls as fragments, which Cloudflare's own AI SDK provider reads the same way); a request
 * with a response format runs unstreamed, since JSON mode does not stream. A thrown transient
 * failure (out of capacity, a timeout, a momentary upstream error) is retried with backoff, but never
 * once a byte of the stream arrived: its deltas may already have reached clients. An abort stops the
 * call at once.
 */
import type { ModelRequest, ModelResponse, Provider, StreamHandlers } from '../../engine/ports/index.js';
import { ProviderError } from '../../engine/ports/index.js';
import {
  type Attempt,
  abortable,
  abortReason,
  type ReadProgress,
  type RetryOptions,
  readAttempt,
  readEventStream,
  snippet,
  withRetries,
} from '../transport/index.js';
import { AnswerReader } from './answer-reader.js';
import { isByteStream, type WorkersAIBinding } from './binding.js';
import { bindingFailure, NAME } from './binding-errors.js';
import { runInputs } from './run-inputs.js';

export interface WorkersAIProviderOptions extends RetryOptions {
  /** The Worker's AI binding (`env.AI`), or anything with the same `run`. */
  binding: WorkersAIBinding;
}

export class WorkersAIProvider implements Provider {
  private readonly binding: WorkersAIBinding;

  constructor(private readonly options: WorkersAIProviderOptions) {
    this.binding = options.binding;
  }

  complete(request: ModelRequest, handlers: StreamHandlers = {}): Promise<ModelResponse> {
    const inputs = runInputs(request);
    return withRetries(this.options, request.signal, () => this.attempt(request, inputs, handlers));
  }

  /** One call. Throws what must not be retried; returns a transient failure for the loop to retry. */
  private async attempt(
    request: ModelRequest,
    inputs: Record<string, unknown>,
    handlers: StreamHandlers,
  ): Promise<Attempt> {
    const { signal } = request;
    let output: unknown;
    try {
      // The binding is called as a method: workerd's Ai.run needs its own `this`.
      output = await abortable(this.binding.run(request.model, inputs, signal ? { signal } : {}), signal);
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      const failure = bindingFailure(error, request.model);
      if (!failure.retryable) throw failure;
      return { ok: false, error: failure, retryAfterMs: null };
    }
    return readAttempt(signal, (progress) => readAnswer(output, request, handlers, progress));
  }
}

/** What `run` resolved to: a byte stream (server-sent events, or a JSON body), or the parsed output. */
async function readAnswer(
  output: unknown,
  request: ModelRequest,
  handlers: StreamHandlers,
  progress: ReadProgress,
): Promise<ModelResponse> {
  const reader = new AnswerReader(request.model, handlers);
  if (!isByteStream(output)) {
    reader.onWholeAnswer(output);
    return reader.result();
  }
  const read = await readEventStream(output, {
    name: NAME,
    signal: request.signal,
    progress,
    onEvent: (event) => {
      reader.onEventData(event.data);
      return reader.done;
    },
  });
  if (read.events > 0) return reader.result();
  const raw = read.raw.trim();
  if (raw === '') {
    throw new ProviderError(`${NAME} answered ${request.model} with a stream that ended without any data`);
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ProviderError(
      `${NAME} answered ${request.model} with a body that is neither server-sent events nor JSON: ${snippet(raw)}`,
    );
  }
  reader.onWholeAnswer(body);
  return reader.result();
}
