/**
 * The guards every call passes before its code runs, in order (PERM-3): the capability check
 * (LOCK-5), the permission rules (PERM-1), the watchdog (PERM-3). A later guard can refuse what an
 * earlier one allowed, never the reverse; `ask` pauses for a human, or denies on a headless thread.
 */
import type { AgentDefinition, PermissionRule, Watchdog } from '../spec/index.js';
import { type CallAccess, callAccess } from './call-access.js';
import { type EffectiveCapabilities, outOfScope } from './capabilities.js';
import type { GuardDecision, ToolGuard } from './executor.js';
import { decide, type PermissionCheck, type ScopedRule, scoped } from './permission-rules.js';
import type { ThreadStore } from './thread-store.js';
import type { ValidatedCall } from './tool-call-validation.js';

/** Where the thread's own rules live: given at creation, and added by "allow always" answers. */
export const SESSION_RULES_KEY = 'permissions:session';

export interface GuardSetup {
  agent: AgentDefinition;
  capabilities: EffectiveCapabilities;
  projectRules: readonly PermissionRule[];
  projectWatchdog: Watchdog | undefined;
  store: ThreadStore;
}

function sessionRules(store: ThreadStore): PermissionRule[] {
  return (store.getValue(SESSION_RULES_KEY) as PermissionRule[] | undefined) ?? [];
}

/** The (permission, subject) pairs of a call: its tool id per command or argument, and its capabilities. */
function checksOf(validated: ValidatedCall, access: CallAccess): PermissionCheck[] {
  const tool = validated.tool.name;
  const commands = access.argv.map((argv) => argv.join(' '));
  const subjects = commands.length > 0 ? commands : [access.subject ?? JSON.stringify(validated.args ?? {})];
  return [
    ...subjects.map((subject) => ({ permission: tool, subject })),
    ...(access.read ?? []).map((subject) => ({ permission: 'fs.read', subject })),
    ...(access.write ?? []).map((subject) => ({ permission: 'fs.write', subject })),
    ...(access.hosts ?? []).map((subject) => ({ permission: 'net.fetch', subject })),
    ...commands.map((subject) => ({ permission: 'shell.run', subject })),
  ];
}

function rulesFor(setup: GuardSetup): ScopedRule[] {
  return [
    ...scoped(setup.agent.permissions, 'manifest'),
    ...scoped(setup.projectRules, 'project'),
    ...scoped(sessionRules(setup.store), 'session'),
  ];
}

function capabilityGuard(setup: GuardSetup): ToolGuard {
  return async (validated) => {
    const access = await callAccess(validated);
    if (access.unparsable) return { action: 'deny', reason: `Denied: ${access.unparsable}.` };
    let reason: string | null;
    try {
      reason = outOfScope(setup.capabilities, access, access.argv);
    } catch (error) {
      reason = (error as Error).message;
    }
    return reason ? { action: 'deny', reason: `Denied: ${reason}.` } : { action: 'allow' };
  };
}

function permissionGuard(setup: GuardSetup): ToolGuard {
  return async (validated) => {
    const access = await callAccess(validated);
    const rules = rulesFor(setup);
    const asks: string[] = [];
    for (const check of checksOf(validated, access)) {
      const { action, rule } = decide(rules, check);
      if (action === 'deny') {
        const by = rule ? `the ${rule.scope} rule (${rule.permission}, ${rule.pattern}, deny)` : 'a rule';
        return { action: 'deny', reason: `Denied by ${by} for ${check.permission} "${check.subject}".` };
      }
      if (action === 'ask') asks.push(`${check.permission} "${check.subject}"`);
    }
    return asks.length > 0
      ? { action: 'ask', reason: `Permission needed for ${asks.join(', ')}.` }
      : { action: 'allow' };
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
    if (decision === 'ask') return { action: 'ask', reason: 'The watchdog asks for approval.' };
    return { action: 'deny', reason: `Denied by the watchdog: ${decision.deny}` };
  };
}

export function toolGuards(setup: GuardSetup): ToolGuard[] {
  const watchdogs = [setup.agent.watchdog, setup.projectWatchdog].filter((w): w is Watchdog => w !== undefined);
  return [capabilityGuard(setup), permissionGuard(setup), ...watchdogs.map((w) => watchdogGuard(setup, w))];
}

/**
 * "Allow always" (PERM-2): every check of the call that would ask becomes a session allow rule for
 * exactly its subject. A manifest deny still wins over these, as over any rule.
 */
export async function rememberAllowed(setup: GuardSetup, validated: ValidatedCall): Promise<void> {
  const access = await callAccess(validated);
  const rules = rulesFor(setup);
  const added: PermissionRule[] = checksOf(validated, access)
    .filter((check) => decide(rules, check).action === 'ask')
    .map((check) => ({ permission: check.permission, pattern: check.subject.replace(/[*?]/g, '?'), action: 'allow' }));
  if (added.length > 0) setup.store.setValue(SESSION_RULES_KEY, [...sessionRules(setup.store), ...added]);
}
