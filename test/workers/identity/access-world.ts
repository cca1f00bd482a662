/**
 * The world the access matrix runs in (IDN-1, IDN-4): two fresh tenants, A and B, each with a key per
 * role issued through `POST /api/keys` by the bootstrap admin, and the requests the matrix sends
 * through the Worker's own fetch handler with `ADMIN_KEY` added to the test bindings. Each principal
 * is a column of the tables in access-matrix*.test.ts, in the order of WHO.
 */
import { expect } from 'vitest';
import { until } from '../../support/api.js';
import { ADMIN_KEY, adminEnv, call } from '../../support/worker-calls.js';

export { ADMIN_KEY, adminEnv, call };

/**
 * The principals, as the tables' columns: A's viewer, the member who starts A's threads (`owner`),
 * a second member, A's approver and admin; then B's four roles.
 */
export const WHO = [
  'viewer',
  'owner',
  'member',
  'approver',
  'admin',
  'B viewer',
  'B member',
  'B approver',
  'B admin',
] as const;
export type Who = (typeof WHO)[number];
const ROLES: Record<Who, [tenant: 'A' | 'B', role: string]> = {
  viewer: ['A', 'viewer'],
  owner: ['A', 'member'],
  member: ['A', 'member'],
  approver: ['A', 'approver'],
  admin: ['A', 'admin'],
  'B viewer': ['B', 'viewer'],
  'B member': ['B', 'member'],
  'B approver': ['B', 'approver'],
  'B admin': ['B', 'admin'],
};

export interface World {
  tenants: { A: string; B: string };
  /** Each principal's issued key. */
  keys: Record<Who, string>;
  /** Each principal's subject, as the key listing shows it. */
  subjects: Record<Who, string>;
}

/** Two fresh tenants (no other test shares them) and a key for each principal. */
export async function makeWorld(): Promise<World> {
  const suffix = crypto.randomUUID().slice(0, 8);
  const tenants = { A: `matrix-a-${suffix}`, B: `matrix-b-${suffix}` };
  const keys = {} as Record<Who, string>;
  const subjects = {} as Record<Who, string>;
  for (const who of WHO) {
    const [tenant, role] = ROLES[who];
    const response = await call('/api/keys', ADMIN_KEY, {
      method: 'POST',
      json: { tenant: tenants[tenant], role, name: who },
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const issued = (await response.json()) as { key: string; subject: string };
    keys[who] = issued.key;
    subjects[who] = issued.subject;
  }
  return { tenants, keys, subjects };
}

export interface ThreadView {
  id: string;
  status: string;
  message_count: number;
  waiting_for: { tool_call_id: string; kind: string }[];
}

export async function view(id: string, key: string): Promise<ThreadView> {
  const response = await call(`/api/threads/${id}`, key);
  expect(response.status).toBe(200);
  return (await response.json()) as ThreadView;
}

/** Starts a thread as `key`, expecting 201. */
export async function startThread(key: string, body: Record<string, unknown>): Promise<string> {
  const response = await call('/api/threads', key, { method: 'POST', json: body });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Waits until the thread's turn is over: it waits on someone, or is idle. */
export function parked(id: string, key: string): Promise<ThreadView> {
  return until(
    () => view(id, key),
    (thread) => thread.status !== 'running',
  );
}

/**
 * The 404 of a thread nobody may see, with its id taken out: it must read exactly as the 404 of an id
 * nobody ever used, so an answer never tells whether a thread exists.
 */
export async function hiddenBody(response: Response, id: string): Promise<string> {
  return (await response.text()).split(id).join('<id>');
}
