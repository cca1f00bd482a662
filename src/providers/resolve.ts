/**
 * Picks the provider for a model definition from the Worker's env (THR-4). Each model names where
 * its endpoint and key come from (`baseURL` / `baseURLVariable`, `apiKeyVariable`, `binding`), with
 * per-provider defaults, so one Worker serves models of several providers and accounts.
 *
 * A model that is not configured — no key and no endpoint of its own, or no binding — fails its
 * turn with an error naming what to set, never a made-up answer. Only a Worker explicitly in demo
 * mode (`DEMO_MODE=true`, which `npm run dev` sets) answers such a model with the offline demo
 * script. A fallback model (`defineModel({ fallbacks })`) is tried when one fails, across providers.
 */
import { type Provider, ProviderError } from '../engine/ports/index.js';
import type { ModelDefinition, ModelProvider } from '../spec/index.js';
import { anthropicKind } from './anthropic/index.js';
import { FallbackProvider, type ProviderChoice } from './fallback.js';
import { googleKind } from './google/index.js';
import { openaiKind } from './openai/index.js';
import { demoScript, ScriptedProvider } from './scripted/index.js';
import type { ProviderKind } from './transport/index.js';
import { workersAIKind } from './workers-ai/index.js';

/** The Worker's env as providers read it: variables and bindings by name. */
export type ProviderEnv = { readonly [name: string]: unknown } & {
  /** `true`, `1` or `yes`: models without credentials are answered by the offline demo script. */
  DEMO_MODE?: string;
  /** The provider model id of `openai` models that name none. */
  MODEL?: string;
};

/** The providers reached over HTTP or a binding; `scripted` needs no configuration. */
const KINDS: Partial<Record<ModelProvider, ProviderKind>> = {
  openai: openaiKind,
  anthropic: anthropicKind,
  google: googleKind,
  'workers-ai': workersAIKind,
};

/** Whether a model can be called, and if not, what is missing (for `GET /api/agents`). */
export interface ModelStatus {
  name: string;
  provider: ModelProvider;
  configured: boolean;
  /** The variables or bindings to set, when not configured. */
  missing: string[];
  /** Answered by the offline demo script (demo mode, not configured). */
  demo: boolean;
}

function text(env: ProviderEnv, name: string): string | undefined {
  const value = env[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function isDemoMode(env: ProviderEnv): boolean {
  return /^(true|1|yes)$/i.test(text(env, 'DEMO_MODE') ?? '');
}

type Configured = { ok: true; provider: Provider; model: string } | { ok: false; missing: string[]; why: string };

function configure(model: ModelDefinition, env: ProviderEnv): Configured {
  if (model.provider === 'scripted') {
    return { ok: true, provider: new ScriptedProvider(model.script ?? demoScript, model.name), model: model.name };
  }
  const kind = KINDS[model.provider];
  if (!kind) return { ok: false, missing: [], why: `the ${model.provider} provider is not available in this build` };
  const id = model.model ?? (model.provider === 'openai' ? text(env, 'MODEL') : undefined);
  const missing: string[] = [];
  if (!id) missing.push(model.provider === 'openai' ? 'MODEL' : 'model (in defineModel)');
  if (kind.via === 'binding') {
    const name = model.binding ?? kind.defaultBinding;
    const binding = env[name];
    if (!kind.accepts(binding)) missing.push(name);
    if (missing.length > 0 || !id) {
      return { ok: false, missing, why: `needs the ${kind.title} binding ${name} in wrangler.toml` };
    }
    return { ok: true, provider: kind.create(binding), model: id };
  }
  const keyVariable = model.apiKeyVariable ?? kind.keyVariable;
  const apiKey = text(env, keyVariable);
  const ownEndpoint = model.baseURL ?? text(env, model.baseURLVariable ?? kind.baseURLVariable);
  // A server of one's own (a gateway, Ollama, a test server) may need no key; the vendor's does.
  if (!apiKey && !ownEndpoint) missing.push(keyVariable);
  if (missing.length > 0 || !id) {
    return { ok: false, missing, why: `set ${missing.join(' and ')} (wrangler secret put ${missing[0]})` };
  }
  return { ok: true, provider: kind.create({ baseURL: ownEndpoint ?? kind.defaultBaseURL, apiKey }), model: id };
}

export function modelStatus(model: ModelDefinition, env: ProviderEnv): ModelStatus {
  const configured = configure(model, env);
  return {
    name: model.name,
    provider: model.provider,
    configured: configured.ok,
    missing: configured.ok ? [] : configured.missing,
    demo: !configured.ok && isDemoMode(env),
  };
}

/** A provider whose every call fails with why the model cannot be called. */
function unconfigured(model: ModelDefinition, why: string): Provider {
  const message = `model "${model.name}" (${model.provider}) is not configured: ${why}`;
  return { complete: async () => Promise.reject(new ProviderError(message)) };
}

function choiceFor(model: ModelDefinition, env: ProviderEnv): ProviderChoice {
  const configured = configure(model, env);
  if (configured.ok) return { provider: configured.provider, model: configured.model };
  if (isDemoMode(env)) return { provider: new ScriptedProvider(demoScript, 'offline-demo'), model: 'offline-demo' };
  return { provider: unconfigured(model, configured.why), model: model.model ?? model.name };
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
      modelId: only.model,
    };
  }
  return new FallbackProvider(choices);
}
