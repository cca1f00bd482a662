/**
 * Model fallbacks (THR-4): when a model fails after its own retries, the next one in
 * `defineModel({ fallbacks })` is asked, in order. An abort is never retried elsewhere.
 */
import type { ModelRequest, ModelResponse, Provider, StreamHandlers } from '../engine/ports/index.js';

export interface ProviderChoice {
  provider: Provider;
  /** The provider's model id for this choice. */
  model: string;
}

export class FallbackProvider implements Provider {
  constructor(private readonly choices: readonly ProviderChoice[]) {}

  /** The first choice's id: the model a step asks before any fallback. */
  get modelId(): string | undefined {
    return this.choices[0]?.model;
  }

  async complete(request: ModelRequest, handlers?: StreamHandlers): Promise<ModelResponse> {
    let lastError: unknown;
    for (const choice of this.choices) {
      let streamed = false;
      try {
        return await choice.provider.complete(
          { ...request, model: choice.model },
          {
            onTextDelta(delta) {
              streamed = true;
              handlers?.onTextDelta?.(delta);
            },
            // A call's arguments are whole-so-far and the step's stored message settles them:
            // a fallback answering anew shows its own calls (ARGS-1).
            onToolCallDelta: (delta) => handlers?.onToolCallDelta?.(delta),
          },
        );
      } catch (error) {
        // Once text reached clients, a second model would contradict it: fail instead.
        if (request.signal?.aborted || streamed) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }
}
