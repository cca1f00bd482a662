/**
 * The guards every call passes before its code runs, in order (PERM-3): the capability check
 * (LOCK-5), the permission rules (PERM-1), the watchdog (PERM-3). A later guard can refuse what an
 * earlier one allowed, never the reverse; `ask` pauses for a human, or denies on a headless thread.
 * All of them see the call's access in canonical form (call-access.ts); what the call does while it
 * runs is checked again where it happens (access-gate.ts).
 */
import type { AgentDefinition, PermissionRule, Watchdog } from '../../spec/index.js';
import type { GuardDecision, ToolGuard, ValidatedCall } from '../execute/index.js';
import {
  approvalSubjects,
  approvedAlways,
  callChecks,
  decide,
  describeRule,
  type EffectiveCapabilities,
  fallbackFor,
  type LabelledCheck,
  outOfScope,
  readsOnly,
  rememberApproval,
  type ScopedRule,
  SESSION_RULES_KEY,
  sessionRules,
  threadRules,
} from '../permissions/index.js';
import type { ThreadStore } from '../ports/index.js';
import { callAccess } from './call-access.js';

export { SESSION_RULES_KEY } from '../permissions/index.js';

export interface GuardSetup {
  agent: AgentDefinition;
  capabilities: EffectiveCapabilities;
  projectRules: readonly PermissionRule[];
  projectWatchdog: Watchdog | undefined;
  store: ThreadStore;
}

export function rulesFor(setup: GuardSetup): ScopedRule[] {
  return threadRules(setup.store, setup.agent, setup.projectRules);
}

async function checksFor(validated: ValidatedCall): Promise<LabelledCheck[]> {
  return callChecks(validated.tool.name, await callAccess(validated));
}

/** Whether a human answered "allow always" to this tool with these subjects (ALWAYS-1). */
export async function alwaysApproved(store: ThreadStore, validated: ValidatedCall): Promise<boolean> {
  return approvedAlways(store, validated.tool.name, approvalSubjects(await checksFor(validated)));
}

function capabilityGuard(setup: GuardSetup): ToolGuard {
  return async (validated) => {
    const access = await callAccess(validated);
    if (access.unparsable) return { action: 'deny', reason: `Denied: ${access.unparsable}.` };
    const reason = outOfScope(setup.capabilities, access, access.argv);
    return reason ? { action: 'deny', reason: `Denied: ${reason}.` } : { action: 'allow' };
  };
}

/** What the model reads when no rule covers a check: the rule that would allow it. */
function uncoveredMessage(check: LabelledCheck): string {
  const rule = `{ permission: '${check.permissions[0]}', pattern: ${JSON.stringify(check.shown)}, action: 'allow' }`;
  return `No permission rule covers ${check.label}; to allow it, add ${rule} to the agent's permissions (defineAgent) or the project's (createRuntime).`;
}

function permissionGuard(setup: GuardSetup): ToolGuard {
  return async (validated) => {
    const rules = rulesFor(setup);
    const exempt = readsOnly(validated.tool.definition);
    const asks: string[] = [];
    for (const check of await checksFor(validated)) {
      const { action, rule } = decide(rules, check, fallbackFor(validated.tool.name, check, exempt));
      if (action === 'deny') {
        return { action: 'deny', reason: `Denied by ${rule ? describeRule(rule) : 'a rule'} for ${check.label}.` };
      }
      if (action === 'ask')
        asks.push(rule ? `${describeRule(rule)} asks for ${check.label}.` : uncoveredMessage(check));
    }
    return asks.length > 0 ? { action: 'ask', reason: asks.join(' ') } : { action: 'allow' };
  };
}

function watchdogGuard(setup: GuardSetup, watchdog: Watchdog): ToolGuard {
  return async (validated): Promise<GuardDecision> => {
    const access = await callAccess(validated);
    const decision = await watchdog({
      toolId: validated.tool.name,
      args: validated.args,
      access,
      manifest: setup.capabilities.set,
      threadId: setup.store.info.id,
    });
    if (decision === 'allow') return { action: 'allow' };
    if (decision === 'ask') {
      if (await alwaysApproved(setup.store, validated)) return { action: 'allow' };
      return { action: 'ask', reason: 'The watchdog asks for approval.' };
    }
    return { action: 'deny', reason: `Denied by the watchdog: ${decision.deny}` };
  };
}

export function toolGuards(setup: GuardSetup): ToolGuard[] {
  const watchdogs = [setup.agent.watchdog, setup.projectWatchdog].filter((w): w is Watchdog => w !== undefined);
  return [capabilityGuard(setup), permissionGuard(setup), ...watchdogs.map((w) => watchdogGuard(setup, w))];
}

/**
 * "Allow always" (PERM-2, ALWAYS-1): every check of the call that would ask becomes a session allow
 * rule for exactly its subject, named by the tool, and the call's tool and subjects are remembered
 * for the watchdog's and `requireApproval`'s asks. A manifest or inherited deny still wins.
 */
export async function rememberAllowed(setup: GuardSetup, validated: ValidatedCall): Promise<void> {
  const rules = rulesFor(setup);
  const exempt = readsOnly(validated.tool.definition);
  const checks = await checksFor(validated);
  rememberApproval(setup.store, validated.tool.name, approvalSubjects(checks));
  const added: PermissionRule[] = checks
    .filter((check) => decide(rules, check, fallbackFor(validated.tool.name, check, exempt)).action === 'ask')
    .map((check) => ({
      permission: validated.tool.name,
      pattern: check.subject.replace(/[*?]/g, '?'),
      action: 'allow',
    }));
  if (added.length > 0) setup.store.setValue(SESSION_RULES_KEY, [...sessionRules(setup.store), ...added]);
}
