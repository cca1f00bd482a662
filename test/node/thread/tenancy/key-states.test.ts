/**
 * IDN-2: the Tenant object's copy of its keys' changing facts. The row is read once, a change the key
 * routes report is read again on next use, a read that began before a change never puts the old row
 * back, and a key's use is written at most once a minute.
 */
import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../../../src/thread/keys/index.js';
import { KeyStates } from '../../../../src/thread/tenancy/key-states.js';

function record(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: 'k1',
    prefix: 'sak_k1',
    tenant: 'acme',
    subject: 'key_k1',
    role: 'member',
    name: null,
    created_at: 0,
    created_by: 'admin',
    last_used_at: null,
    expires_at: null,
    revoked_at: null,
    replaced_by: null,
    hash: 'h',
    ...overrides,
  };
}

class FakeRows {
  row: ApiKeyRecord | null = record();
  reads = 0;
  uses: number[] = [];
  /** When set, a read waits for it: a read in flight while the row changes. */
  gate: Promise<void> | null = null;
  async record(): Promise<ApiKeyRecord | null> {
    this.reads++;
    const row = this.row;
    if (this.gate) await this.gate;
    return row;
  }
  async recordUse(_id: string, now: number): Promise<void> {
    this.uses.push(now);
  }
}

describe('an issued key in its tenant object (IDN-2)', () => {
  it('IDN-2: reads the row once, and again after a change is reported', async () => {
    const rows = new FakeRows();
    const keys = new KeyStates(rows, () => {});
    expect(await keys.state('k1', 1_000)).toMatchObject({ role: 'member', revoked_at: null });
    await keys.state('k1', 1_001);
    expect(rows.reads).toBe(1);
    rows.row = record({ revoked_at: 900 });
    expect((await keys.state('k1', 1_002))?.revoked_at).toBeNull();
    keys.forget('k1');
    expect((await keys.state('k1', 1_003))?.revoked_at).toBe(900);
    expect(rows.reads).toBe(2);
  });

  it('IDN-2: a read that began before a change does not keep the old row', async () => {
    const rows = new FakeRows();
    const keys = new KeyStates(rows, () => {});
    let open = () => {};
    rows.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const inFlight = keys.state('k1', 1_000);
    rows.row = record({ revoked_at: 950 });
    keys.forget('k1');
    open();
    rows.gate = null;
    expect((await inFlight)?.revoked_at).toBeNull();
    expect((await keys.state('k1', 1_001))?.revoked_at).toBe(950);
  });

  it('IDN-2: notes a use at most once a minute, and an unknown id as none', async () => {
    const rows = new FakeRows();
    const background: Promise<unknown>[] = [];
    const keys = new KeyStates(rows, (work) => background.push(work));
    await keys.state('k1', 100_000);
    await keys.state('k1', 130_000);
    await keys.state('k1', 160_001);
    await Promise.all(background);
    expect(rows.uses).toEqual([100_000, 160_001]);
    rows.row = null;
    expect(await keys.state('k2', 170_000)).toBeNull();
  });
});
