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
import {
  type Attempt,
  abortable,
  abortReason,
  type RetryOptions,
  readAttempt,
  withRetries,
} from '../transport/index.js';
import type { WorkersAIBinding } from './binding.js';
import { bindingFailure } from './errors.js';
import { runInputs } from './request.js';
import { readStream } from './stream.js';

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
    return readAttempt(signal, (progress) => readStream(output, request, handlers, progress));
  }
}
