import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { userIdForKey } from '../../src/http/identity/index.js';
import type { Principal } from '../../src/thread/access/index.js';
import { ALICE, createThread, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';

const showVars = directive([{ toolCalls: [{ name: 'show_vars' }] }, { text: 'shown' }]);

async function shownVars(id: string): Promise<Record<string, string>> {
  const log = await settled(id);
  return JSON.parse(log.find((m) => m.role === 'tool')?.content ?? '{}');
}

function stub(id: string) {
  return env.THREADS.get(env.THREADS.idFromName(id));
}

async function spawn(parent: string, agent: string, variables: Record<string, string> = {}) {
  const result = await stub(parent).spawnChild(ALICE_USER, parent, {
    agent,
    variables,
    tags: [],
    messages: [{ role: 'user', content: showVars }],
  });
  return result;
}

const ALICE_USER: Principal = {
  tenant: 'default',
  subject: await userIdForKey(ALICE),
  role: 'approver',
  via: 'api_keys',
};

describe('variable values', () => {
  it('VAR-2: values merge prompt → agent → thread, later wins, and tenvs defaults apply', async () => {
    const defaults = await createThread({ agent: 'vars', messages: [{ content: showVars }] });
    expect(await shownVars(defaults)).toEqual({ GREETING: 'hi', units: 'metric' });
    const own = await createThread({
      agent: 'vars',
      variables: { GREETING: 'hey', units: 'imperial' },
      messages: [{ content: showVars }],
    });
    expect(await shownVars(own)).toEqual({ GREETING: 'hey', units: 'imperial' });
  });

  it('VAR-4: a child inherits its parent values except the names it declares scoped', async () => {
    const parent = await createThread({
      agent: 'vars',
      variables: { GREETING: 'from parent', TEAM_TOKEN: 'parent-team-token' },
    });
    const child = await spawn(parent, 'scoped_child');
    expect(child.ok).toBe(true);
    const childId = child.ok ? child.value.id : '';
    expect(await shownVars(childId)).toEqual({ GREETING: 'from parent', units: 'metric' });
    expect(child.ok && child.value.parent_id).toBe(parent);
  });

  it('VAR-4: a scoped value given to a child flows on to its own descendants, still sealed', async () => {
    const parent = await createThread({ agent: 'vars', variables: { TEAM_TOKEN: 'parent-team-token' } });
    const child = await spawn(parent, 'scoped_child', { TEAM_TOKEN: 'child-team-token' });
    const childId = child.ok ? child.value.id : '';
    // The secret is shown scrubbed: the tool saw it, nothing stores or streams it.
    expect(await shownVars(childId)).toMatchObject({ TEAM_TOKEN: '[secret]' });
    const grandchild = await spawn(childId, 'vars');
    const grandchildId = grandchild.ok ? grandchild.value.id : '';
    const seen = await shownVars(grandchildId);
    expect(seen).toMatchObject({ TEAM_TOKEN: '[secret]' });
    const stored = await stub(grandchildId).listMessages(ALICE_USER, grandchildId, {
      after: 0,
      limit: 100,
      depth: null,
    });
    expect(JSON.stringify(stored)).not.toContain('child-team-token');
    const children = await until(
      () => stub(childId).describe(ALICE_USER, childId),
      (result) => result.ok && result.value.children.length === 1,
    );
    expect(children.ok && children.value.children).toEqual([{ id: grandchildId, status: expect.any(String) }]);
  });

  it('VAR-2: spawning a child without its required variables fails with the missing names', async () => {
    const parent = await createThread({ agent: 'general' });
    const child = await spawn(parent, 'with_secrets', { region: 'eu' });
    expect(child).toMatchObject({
      ok: false,
      error: { code: 'missing_variables', details: { missing: ['API_TOKEN'] } },
    });
  });
});
