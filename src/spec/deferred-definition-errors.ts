/**
 * Deferred definition errors, for the development Worker only (`npm run dev`): a `defineTool` that
 * fails its checks while the application's modules load returns a placeholder holding the error
 * instead of throwing, so the registry can report it under the key the tool is registered by
 * (`tools.get_weather`), which the tool's own file does not know. Off by default: a deployed Worker
 * throws at load, so a broken deploy fails instead of serving.
 */
import { DefinitionError } from './definition-error.js';

let deferring = false;
const BROKEN = Symbol('definition error');

/** From now on in this isolate, `defineTool` returns a placeholder instead of throwing a DefinitionError. */
export function deferDefinitionErrors(): void {
  deferring = true;
}

/** Rethrows `error` unless definition errors are deferred and it is one; then returns its placeholder. */
export function deferredDefinition<T>(error: unknown, description: unknown): T {
  if (!deferring || !(error instanceof DefinitionError)) throw error;
  // `kind` as a real tool's, so nothing before the registry trips on the placeholder.
  return { kind: 'function', description, [BROKEN]: error } as T;
}

/** The DefinitionError a placeholder holds, or undefined for a real definition. */
export function deferredDefinitionError(value: unknown): DefinitionError | undefined {
  return typeof value === 'object' && value !== null ? (value as { [BROKEN]?: DefinitionError })[BROKEN] : undefined;
}
