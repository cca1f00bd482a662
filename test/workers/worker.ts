/**
 * The Worker under test: the runtime serving test agents whose model is scripted by each test's own
 * user message (test/support/directive-script.ts).
 */

import { z } from 'zod';
import {
  type AgentDefinition,
  createRuntime,
  defineAgent,
  defineClientTool,
  defineHitlTool,
  defineModel,
  definePrompt,
  defineSkill,
  defineTool,
} from '../../src/index.js';
import { directiveScript } from '../support/directive-script.js';
import * as callVisibility from './call-visibility-app.js';
import * as coalescing from './coalescing-app.js';
import * as conformance from './conformance/app.js';
import * as containment from './containment-app.js';
import * as doubleTexting from './double-texting-app.js';
import * as effectsApp from './effects-app.js';
import * as egress from './egress-app.js';
import * as endpointsApp from './endpoints-app.js';
import * as family from './family-app.js';
import * as google from './google-app.js';
import * as historyApp from './history-app.js';
import * as hooksApp from './hooks-app.js';
import * as indexOutbox from './index-outbox-app.js';
import * as limitsApp from './limits-app.js';
import * as mcpApp from './mcp-app.js';
import * as modelFiles from './model-files-app.js';
import * as modelGuidance from './model-guidance-app.js';
import * as modelsApp from './models-app.js';
import * as quotaApp from './quota-app.js';
import * as sandboxApp from './sandbox-app.js';
import * as schedulesApp from './schedules-app.js';
import * as secretsApp from './secrets-app.js';
import * as subagentWaits from './subagent-waits-app.js';
import * as subagents from './subagents-app.js';
import * as threadFiles from './thread-files-app.js';
import * as threadStateApp from './thread-state-app.js';
import * as toolContext from './tool-context-app.js';
import * as toolRules from './tool-rules-app.js';
import * as tracingApp from './tracing-app.js';
import * as workersAi from './workers-ai-app.js';

// Concurrent calls of one step meet here: each waits until all three have started (EXE-2).
const barriers = new Map<string, { arrived: number; release: () => void; released: Promise<void> }>();

function barrier(key: string) {
  let entry = barriers.get(key);
  if (!entry) {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    entry = { arrived: 0, release, released };
    barriers.set(key, entry);
  }
  return entry;
}

const tools = {
  report_progress: defineTool({
    description: 'Tell the parent thread how far the work is',
    args: z.object({ note: z.string() }),
    execute: async (state, args) => {
      await state.notifyParent(args.note);
      return { status: 'success', result: 'told the parent' };
    },
  }),
  count_progress: defineTool({
    description: 'Count to three and report each step',
    eventSchema: z.object({ step: z.number() }),
    execute: async function* () {
      for (let step = 1; step <= 3; step++) yield { step };
      return { status: 'success', result: 'counted' };
    },
  }),
  bad_progress: defineTool({
    description: 'Report a malformed progress event',
    eventSchema: z.object({ step: z.number() }),
    execute: async function* () {
      yield { step: 'one' };
      return { status: 'success', result: 'never' };
    },
  }),
  meet: defineTool({
    description: 'Wait until three concurrent calls have started',
    readOnly: true,
    concurrent: true,
    timeout: 5000,
    args: z.object({ label: z.string() }),
    execute: async (state, args) => {
      const entry = barrier(state.threadId);
      entry.arrived++;
      if (entry.arrived === 3) entry.release();
      await entry.released;
      return { status: 'success', result: `met ${args.label}` };
    },
  }),
  after_meeting: defineTool({
    description: 'Report how many concurrent calls had met when this one started',
    execute: async (state) => ({ status: 'success', result: `arrived: ${barrier(state.threadId).arrived}` }),
  }),
  client_lookup: defineClientTool({
    description: 'Look up a record in the client database',
    args: z.object({ key: z.string() }),
    outputSchema: z.object({ found: z.boolean() }),
  }),
  refund: defineHitlTool({
    description: 'Refund an order, asking a human above 100',
    args: z.object({ amount: z.number() }),
    outputSchema: z.object({ approved: z.boolean(), by: z.string() }),
    onToolCalled: (args) => (args.amount < 100 ? { approved: true, by: 'policy' } : null),
    onResponseReceived: (output) => ({ ...(output as object), by: 'human' }),
  }),
  convert_units: defineTool({
    description: 'Convert a quantity between units',
    deferred: true,
    args: z.object({ value: z.number(), from: z.string(), to: z.string() }),
    execute: async (_state, args) => ({ status: 'success', result: `${args.value} ${args.from} in ${args.to}` }),
  }),
  guarded_increment: defineTool({
    description: 'Increment the thread counter after approval',
    requireApproval: true,
    execute: async (state) => {
      const runs = ((await state.getValue<number>('guarded_runs')) ?? 0) + 1;
      await state.setValue('guarded_runs', runs);
      return { status: 'success', result: `runs: ${runs}` };
    },
  }),
  show_vars: defineTool({
    description: 'Show the thread variables',
    execute: async (state) => ({ status: 'success', result: JSON.stringify(state.tenvs) }),
  }),
  echo: defineTool({
    description: 'Return the given text',
    args: z.object({ text: z.string().describe('Text to return') }),
    execute: async (_state, args) => ({ status: 'success', result: args.text }),
  }),
  add: defineTool({
    description: 'Add two numbers',
    args: z.object({ a: z.number(), b: z.number() }),
    execute: async (_state, args) => ({ status: 'success', result: String(args.a + args.b) }),
  }),
  record_order: defineTool({
    description: 'Append a label to the thread list of calls',
    args: z.object({ label: z.string() }),
    execute: async (state, args) => {
      const order = (await state.getValue<string[]>('order')) ?? [];
      order.push(args.label);
      await state.setValue('order', order);
      return { status: 'success', result: order.join(',') };
    },
  }),
  wait_for_abort: defineTool({
    description: 'Wait until the call is aborted',
    execute: (state) =>
      new Promise((resolve) => {
        state.emit('waiting', { tool: 'wait_for_abort' });
        state.execution?.abortSignal.addEventListener('abort', () =>
          resolve({ status: 'error', error: 'aborted by signal' }),
        );
      }),
  }),
  block_once: defineTool({
    description: 'Block on the first run and succeed when run again',
    idempotent: true,
    execute: async (state) => {
      const runs = ((await state.getValue<number>('block_once_runs')) ?? 0) + 1;
      await state.setValue('block_once_runs', runs);
      if (runs === 1) return new Promise(() => {});
      return { status: 'success', result: `run ${runs}` };
    },
  }),
  never_returns: defineTool({
    description: 'Never finish, ignoring the abort signal',
    timeout: 50,
    execute: () => new Promise(() => {}),
  }),
  throws: defineTool({
    description: 'Throw an error',
    execute: async () => {
      throw new Error('tool exploded');
    },
  }),
  make_attachment: defineTool({
    description: 'Return a small text file as an attachment',
    args: z.object({ name: z.string(), text: z.string() }),
    execute: async (_state, args) => ({
      status: 'success',
      result: 'made',
      attachments: [{ name: args.name, mimeType: 'text/plain', data: btoa(args.text) }],
    }),
  }),
  read_file: defineTool({
    description: 'Read a file of the thread',
    args: z.object({ path: z.string() }),
    execute: async (state, args) => {
      const bytes = await state.readFile(args.path);
      return bytes
        ? { status: 'success', result: new TextDecoder().decode(bytes) }
        : { status: 'error', error: `no file ${args.path}` };
    },
  }),
  thread_info: defineTool({
    description: 'Describe the thread the tool runs in',
    execute: async (state) => ({
      status: 'success',
      result: JSON.stringify({
        threadId: state.threadId,
        agentId: state.agentId,
        stepCount: state.execution?.stepCount,
        currentSide: state.execution?.currentSide,
        hasSignal: state.execution?.abortSignal instanceof AbortSignal,
      }),
    }),
  }),
  use_token: defineTool({
    description: 'Call a service with the API token',
    variables: [{ name: 'API_TOKEN', type: 'secret', required: true, description: 'Token of the service' }],
    tenvs: z.object({ region: z.string().describe('Service region'), tier: z.string().optional() }),
    execute: async (state) => {
      const token = await state.env('API_TOKEN');
      state.emit('calling', { token });
      return { status: 'error', error: `service refused token ${token} in ${state.tenvs.region}` };
    },
  }),
};

// VAR-5 (store_secret): a service that answers 401 until its key, a secret, starts with `sec-valid-`.
const secTools = {
  sec_call_service: defineTool({
    description: 'Call the test service with its API key',
    variables: [{ name: 'SEC_API_KEY', type: 'secret', required: false, description: 'API key of the test service' }],
    execute: async (state) => {
      const key = state.tenvs.SEC_API_KEY;
      if (!key) return { status: 'error', error: '401 Unauthorized: missing api key SEC_API_KEY' };
      if (!key.startsWith('sec-valid-')) return { status: 'error', error: '401 Unauthorized: invalid api key' };
      // On purpose: the scrubber must know the newly stored key and hide it (EXE-8).
      return { status: 'success', result: `authorized with key ${key}` };
    },
  }),
};

const scripted = defineModel({ name: 'scripted', provider: 'scripted', script: directiveScript });
// Speaks HTTP to the local OpenAI-compatible server of global-setup.ts (OPENAI_BASE_URL).
const remote = defineModel({ name: 'remote', provider: 'openai' });
const general = definePrompt({
  name: 'general',
  prompt: 'You are a test agent.',
  model: 'scripted',
  tools: [
    'echo',
    'add',
    'record_order',
    'wait_for_abort',
    'block_once',
    'never_returns',
    'throws',
    'make_attachment',
    'read_file',
    'thread_info',
    'question',
    'guarded_increment',
    'task',
    'report_progress',
    'count_progress',
    'bad_progress',
    'meet',
    'after_meeting',
    'client_lookup',
    'refund',
  ],
});
const withSecrets = definePrompt({ name: 'with_secrets', prompt: '', model: 'scripted', tools: ['use_token', 'echo'] });
const limited = definePrompt({ name: 'limited', prompt: '', model: 'scripted', tools: ['echo'] });
const vars = definePrompt({
  name: 'vars',
  prompt: '',
  model: 'scripted',
  tools: ['show_vars'],
  variables: [{ name: 'GREETING', type: 'text', required: true, description: 'How to greet', default: 'hello' }],
  tenvs: z.object({ units: z.string().default('metric').describe('Unit system') }),
});
const scopedChild = definePrompt({
  name: 'scoped_child',
  prompt: '',
  model: 'scripted',
  tools: ['show_vars'],
  variables: [{ name: 'TEAM_TOKEN', type: 'secret', required: false, scoped: true, description: 'Token of the team' }],
});
const frontDesk = definePrompt({
  name: 'front_desk',
  prompt: 'You greet.',
  model: 'scripted',
  tools: ['echo', 'billing'],
});
const billingDesk = definePrompt({ name: 'billing_desk', prompt: 'You bill.', model: 'scripted', tools: ['add'] });
const delegating = definePrompt({
  name: 'delegating',
  prompt: 'You delegate.',
  model: 'scripted',
  tools: [
    'echo',
    {
      name: 'helper',
      initUserMessageProperty: 'question',
      initAttachmentsProperty: 'files',
      initAgentNameProperty: 'label',
    },
    { name: 'background_helper', blocking: false },
    { name: 'flagged_helper', optional: 'HELPERS_ON' },
    { name: 'token_helper' },
  ],
});
const extras = definePrompt({
  name: 'extras',
  prompt: 'You help with releases.',
  model: 'remote',
  tools: ['skill', 'tool_search', 'convert_units', 'echo'],
});
const remoteSecrets = definePrompt({
  name: 'remote_secrets',
  prompt: 'You call services.',
  model: 'remote',
  tools: ['use_token', 'echo'],
});

// The web tools (LOCK-3); tests pass the provider variables when they create a thread.
const web = definePrompt({ name: 'web', prompt: '', model: 'scripted', tools: ['web_search', 'web_fetch'] });
// The locked filesystem tools and todo (LOCK-1, LOCK-6).
const fsTools = definePrompt({
  name: 'fs_tools',
  prompt: '',
  model: 'scripted',
  tools: ['read', 'write', 'edit', 'glob', 'grep', 'todo'],
});

// The simulated shell over the thread filesystem (LOCK-1, PERM-4).
const shell = definePrompt({ name: 'shell', prompt: '', model: 'scripted', tools: ['bash'] });

// store_secret is offered without being listed: the agents declare a secret variable (VAR-5).
const secRemote = definePrompt({
  name: 'sec_remote',
  prompt: 'You call services.',
  model: 'remote',
  tools: ['sec_call_service'],
});
const secScripted = definePrompt({
  name: 'sec_scripted',
  prompt: '',
  model: 'scripted',
  tools: ['sec_call_service', 'question'],
});

// Tool context (KIND-6) and the round limit (KIND-7): test/workers/tool-context.test.ts.
const ctxTools = {
  ctx_counter: defineTool({
    description: 'Count calls in the tool context',
    contextSchema: z.object({ count: z.number().int() }),
    sharedContextSchema: z.object({ visits: z.number().int() }),
    execute: async (state) => {
      await state.setContext({ count: (state.context.local.count ?? 0) + 1 });
      await state.setContext({ visits: (state.context.shared.visits ?? 0) + 1 }, { scope: 'shared' });
      return { status: 'success', result: JSON.stringify(state.context) };
    },
  }),
  ctx_corrupt: defineTool({
    description: 'Write a count that is not a number',
    contextSchema: z.object({ count: z.number().int() }),
    execute: async (state) => {
      await state.setContext({ count: 'many' as unknown as number });
      return { status: 'success', result: 'stored' };
    },
  }),
};
const ctxGeneral = definePrompt({ name: 'ctx_general', prompt: '', model: 'scripted', tools: Object.keys(ctxTools) });
const ctxNoRounds = definePrompt({
  name: 'ctx_no_rounds',
  prompt: '',
  model: 'scripted',
  tools: ['ctx_counter'],
  maxToolRounds: 0,
});

const ALLOW_EVERYTHING = { permission: '*', pattern: '*', action: 'allow' } as const;

/**
 * Test agents not about permissions are allowed everything by their manifest; an agent that declares
 * rules of its own keeps exactly those (PERM-1: with no rule, a call asks).
 */
function allowedUnlessRuled(agents: AgentDefinition[]): AgentDefinition[] {
  return agents.map((agent) => (agent.permissions.length > 0 ? agent : { ...agent, permissions: [ALLOW_EVERYTHING] }));
}

const runtime = createRuntime({
  tools: {
    ...tools,
    ...secTools,
    ...conformance.tools,
    ...ctxTools,
    ...subagents.tools,
    ...subagentWaits.tools,
    ...containment.tools,
    ...egress.tools,
    ...secretsApp.tools,
    ...modelGuidance.tools,
    ...google.tools,
    ...workersAi.tools,
    ...sandboxApp.tools,
    ...family.tools,
    ...quotaApp.tools,
    ...toolRules.tools,
    ...toolContext.tools,
    ...threadFiles.tools,
    ...threadStateApp.tools,
    ...callVisibility.tools,
    ...effectsApp.tools,
    ...doubleTexting.tools,
    ...historyApp.tools,
    ...hooksApp.tools,
    ...tracingApp.tools,
  },
  models: [
    scripted,
    remote,
    ...limitsApp.models,
    ...hooksApp.models,
    ...modelGuidance.models,
    ...modelsApp.models,
    ...google.models,
    ...workersAi.models,
    ...modelFiles.models,
  ],
  prompts: [
    general,
    withSecrets,
    limited,
    remoteSecrets,
    vars,
    scopedChild,
    web,
    fsTools,
    shell,
    extras,
    delegating,
    frontDesk,
    billingDesk,
    secRemote,
    secScripted,
    ...conformance.prompts,
    ctxGeneral,
    ctxNoRounds,
    ...subagents.prompts,
    ...tracingApp.prompts,
    ...subagentWaits.prompts,
    ...containment.prompts,
    ...egress.prompts,
    ...modelsApp.prompts,
    ...secretsApp.prompts,
    ...modelGuidance.prompts,
    ...google.prompts,
    ...workersAi.prompts,
    ...modelFiles.prompts,
    ...sandboxApp.prompts,
    ...family.prompts,
    ...mcpApp.prompts,
    ...quotaApp.prompts,
    ...doubleTexting.prompts,
    ...historyApp.prompts,
    ...toolRules.prompts,
    ...toolContext.prompts,
    ...threadFiles.prompts,
    ...threadStateApp.prompts,
    ...callVisibility.prompts,
    ...limitsApp.prompts,
    ...coalescing.prompts,
    ...effectsApp.prompts,
    ...hooksApp.prompts,
    ...endpointsApp.prompts,
  ],
  // EP-1: thread endpoints (test/workers/endpoints.test.ts).
  endpoints: { ...endpointsApp.endpoints, ...effectsApp.endpoints, ...family.endpoints },
  // Effects (test/workers/effects.test.ts).
  effects: effectsApp.effects,
  // Hooks (test/workers/hooks.test.ts).
  hooks: hooksApp.hooks,
  hookTimeoutMs: hooksApp.HOOK_TIMEOUT_MS,
  // ATT-6, THR-8: small enough that a test fills a thread in a few megabytes or messages.
  limits: { ...quotaApp.LIMITS, deltaFlushMs: coalescing.DELTA_FLUSH_MS },
  // BEAT-1: heartbeats in a fraction of a second rather than every 30 s.
  toolHeartbeatMs: callVisibility.HEARTBEAT_MS,
  skills: [
    defineSkill({
      name: 'release-checklist',
      description: 'Steps to cut a release',
      body: 'SKILL-BODY: tag, build, publish, announce.',
    }),
  ],
  agents: allowedUnlessRuled([
    ...conformance.agents,
    ...subagents.agents,
    ...subagentWaits.agents,
    ...containment.agents,
    ...egress.agents,
    ...modelsApp.agents,
    ...secretsApp.agents,
    ...modelGuidance.agents,
    ...google.agents,
    ...workersAi.agents,
    ...modelFiles.agents,
    ...sandboxApp.agents,
    ...family.agents,
    ...mcpApp.agents,
    ...quotaApp.agents,
    ...toolRules.agents,
    ...toolContext.agents,
    ...threadFiles.agents,
    ...threadStateApp.agents,
    ...callVisibility.agents,
    ...limitsApp.agents,
    ...indexOutbox.agents,
    ...coalescing.agents,
    ...effectsApp.agents,
    ...doubleTexting.agents,
    ...historyApp.agents,
    ...schedulesApp.agents,
    ...hooksApp.agents,
    ...tracingApp.agents,
    defineAgent({ name: 'ctx_general', sideA: { prompt: 'ctx_general' } }),
    ...endpointsApp.agents,
    defineAgent({ name: 'ctx_no_rounds', sideA: { prompt: 'ctx_no_rounds' } }),
    defineAgent({ name: 'shell', sideA: { prompt: 'shell' } }),
    defineAgent({
      name: 'shell_guarded',
      sideA: { prompt: 'shell' },
      permissions: [
        { permission: 'bash', pattern: 'rm *', action: 'deny' },
        { permission: 'fs.write', pattern: '/outside/*', action: 'deny' },
      ],
    }),
    defineAgent({ name: 'general', sideA: { prompt: 'general' } }),
    defineAgent({ name: 'with_secrets', sideA: { prompt: 'with_secrets' } }),
    defineAgent({ name: 'limited', sideA: { prompt: 'limited', maxSteps: 2 } }),
    defineAgent({ name: 'remote_secrets', sideA: { prompt: 'remote_secrets' } }),
    defineAgent({
      name: 'vars',
      sideA: { prompt: 'vars' },
      variables: [
        { name: 'GREETING', type: 'text', required: true, description: 'How to greet', default: 'hi' },
        { name: 'TEAM_TOKEN', type: 'secret', required: false, description: 'Token of the team' },
      ],
    }),
    defineAgent({ name: 'scoped_child', sideA: { prompt: 'scoped_child' } }),
    defineAgent({ name: 'extras', sideA: { prompt: 'extras' } }),
    defineAgent({ name: 'delegator', sideA: { prompt: 'delegating' } }),
    defineAgent({ name: 'front', sideA: { prompt: 'front_desk' } }),
    defineAgent({ name: 'billing', title: 'Billing', exposeAsTool: true, sideA: { prompt: 'billing_desk' } }),
    defineAgent({
      name: 'helper',
      exposeAsTool: true,
      toolDescription: 'Answer a question as the helper agent',
      sideA: { prompt: 'general' },
    }),
    defineAgent({ name: 'background_helper', exposeAsTool: true, sideA: { prompt: 'general' } }),
    defineAgent({ name: 'flagged_helper', exposeAsTool: true, sideA: { prompt: 'general' } }),
    defineAgent({ name: 'token_helper', exposeAsTool: true, sideA: { prompt: 'with_secrets' } }),
    defineAgent({ name: 'web', sideA: { prompt: 'web' } }),
    defineAgent({ name: 'fs_tools', sideA: { prompt: 'fs_tools' } }),
    defineAgent({ name: 'sec_remote', sideA: { prompt: 'sec_remote' } }),
    defineAgent({ name: 'sec_scripted', sideA: { prompt: 'sec_scripted' } }),
  ]),
});

// The Workers AI test model reaches its stub binding through the env each thread receives (workers-ai-app.ts);
// the thread index's writes pass a switch a test can set (index-outbox-app.ts).
export class Thread extends runtime.Thread {
  constructor(...[ctx, env]: ConstructorParameters<typeof runtime.Thread>) {
    super(ctx, workersAi.withStubBinding(indexOutbox.withSwitchableIndex(env)));
  }
}
export const SandboxNetwork = runtime.SandboxNetwork;
export const Tenant = runtime.Tenant;
export default runtime.worker;
