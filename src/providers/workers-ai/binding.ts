/**
 * The Workers AI binding as the provider sees it (THR-4): the one method it calls,
 * `env.AI.run(model, inputs, options)`. workerd's implementation (`Ai.run` in
 * src/cloudflare/internal/ai-api.ts) resolves, for `inputs.stream: true`, to the response body: a
 * `ReadableStream<Uint8Array>` of server-sent events; otherwise to the parsed JSON output (or the body,
 * when the model answers with something other than JSON). It rejects with an `InferenceUpstreamError`
 * whose message is `<internal code>: <description>`. Declared here rather than taken from
 * workers-types so the provider, its tests in Node and the stub binding share one small contract.
 */

export interface WorkersAIRunOptions {
  signal?: AbortSignal;
}

export interface WorkersAIBinding {
  run(model: string, inputs: Record<string, unknown>, options?: WorkersAIRunOptions): Promise<unknown>;
}

/** Whether a value of the Worker's env can be called as the binding: an object with a `run` function. */
export function isWorkersAIBinding(value: unknown): value is WorkersAIBinding {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { run?: unknown }).run === 'function'
  );
}

/** Whether the binding answered with a byte stream (streamed, or a body that is not JSON). */
export function isByteStream(value: unknown): value is ReadableStream<Uint8Array> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { getReader?: unknown }).getReader === 'function'
  );
}
