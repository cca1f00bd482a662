/**
 * Picks the provider for a model definition from the Worker's variables (THR-4). An `openai` model
 * with neither OPENAI_BASE_URL nor OPENAI_API_KEY set is answered by the offline demo script, so the
 * example agents run without any key.
 */
import type { Provider } from '../engine/ports/index.js';
import type { ModelDefinition } from '../spec/index.js';
import { demoScript } from './demo-script.js';
import { FallbackProvider, type ProviderChoice } from './fallback.js';
import { OpenAIProvider } from './openai.js';
import { ScriptedProvider } from './scripted.js';

export interface ProviderEnv {
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  MODEL?: string;
}

const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

function choiceFor(model: ModelDefinition, env: ProviderEnv): ProviderChoice {
  if (model.provider === 'scripted') {
    return { provider: new ScriptedProvider(model.script ?? demoScript, model.name), model: model.name };
  }
  if (!env.OPENAI_BASE_URL && !env.OPENAI_API_KEY) {
    return { provider: new ScriptedProvider(demoScript, 'offline-demo'), model: 'offline-demo' };
  }
  const id = model.model ?? env.MODEL;
  if (!id) {
    throw new Error(`model "${model.name}" names no provider model id and the MODEL variable is not set`);
  }
  return {
    provider: new OpenAIProvider({
      baseURL: env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY,
    }),
    model: id,
  };
}

export function resolveProvider(
  model: ModelDefinition,
  lookup: (name: string) => ModelDefinition,
  env: ProviderEnv,
): Provider {
  const chain = [model, ...(model.fallbacks ?? []).map(lookup)];
  const choices = chain.map((definition) => choiceFor(definition, env));
  if (choices.length === 1) {
    const only = choices[0] as ProviderChoice;
    return {
      complete: (request, handlers) => only.provider.complete({ ...request, model: only.model }, handlers),
    };
  }
  return new FallbackProvider(choices);
}
