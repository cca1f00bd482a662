/**
 * Schedules' timing in Node (SCHED-4 to SCHED-6): an agent's schedules checked by defineAgent and at
 * startup, the refusals of a caller's timing, and which tick is due when an alarm runs late.
 */
import { describe, expect, it } from 'vitest';
import { Registry } from '../../../../src/engine/registry/index.js';
import { dueTick, MISSED_GRACE_MS, timingProblem } from '../../../../src/engine/schedules/index.js';
import {
  type AgentSchedule,
  DefinitionError,
  defineAgent,
  defineModel,
  definePrompt,
} from '../../../../src/spec/index.js';

function appWith(schedules: AgentSchedule[]) {
  return {
    models: [defineModel({ name: 'm', provider: 'openai', model: 'm' })],
    prompts: [definePrompt({ name: 'p', prompt: 'x', model: 'm' })],
    agents: [defineAgent({ name: 'ops', sideA: { prompt: 'p' }, schedules })],
  };
}

describe("an agent's schedules", () => {
  it('SCHED-6: defineAgent refuses a schedule without a name, with both or neither of cron and at, or an unknown missed or onBusy', () => {
    const agent = (schedules: unknown[]) => () =>
      defineAgent({ name: 'ops', sideA: { prompt: 'p' }, schedules: schedules as AgentSchedule[] });
    expect(agent([{ cron: '0 9 * * *', message: 'x' }])).toThrow(DefinitionError);
    expect(agent([{ name: 'a', message: 'x' }])).toThrow(/exactly one of cron and at/);
    expect(agent([{ name: 'a', cron: '0 9 * * *', at: 0, message: 'x' }])).toThrow(/exactly one of cron and at/);
    expect(agent([{ name: 'a', cron: '0 9 * * *', message: '' }])).toThrow(/message/);
    expect(agent([{ name: 'a', cron: '0 9 * * *', message: 'x', missed: 'later' }])).toThrow(/missed/);
    expect(agent([{ name: 'a', cron: '0 9 * * *', message: 'x', onBusy: 'never' }])).toThrow(/onBusy/);
    expect(
      agent([
        { name: 'a', cron: '0 9 * * *', message: 'x' },
        { name: 'a', cron: '0 10 * * *', message: 'y' },
      ]),
    ).toThrow(/two schedules are named "a"/);
    const ok = defineAgent({
      name: 'ops',
      sideA: { prompt: 'p' },
      schedules: [{ name: 'a', cron: '0 9 * * *', message: 'x' }],
    });
    expect(ok.schedules).toEqual([{ name: 'a', cron: '0 9 * * *', message: 'x', timezone: 'UTC', missed: 'run_once' }]);
  });

  it('SCHED-6: the registry stops the runtime at startup on a cron that does not parse or never fires, or an unknown zone', () => {
    expect(() => new Registry(appWith([{ name: 'a', cron: 'every morning', message: 'x' }]))).toThrow(
      /agent "ops" schedule "a": cron "every morning" does not parse/,
    );
    expect(() => new Registry(appWith([{ name: 'a', cron: '0 0 30 2 *', message: 'x' }]))).toThrow(/never fires/);
    expect(
      () => new Registry(appWith([{ name: 'a', cron: '0 9 * * *', timezone: 'Moon/Tranquility', message: 'x' }])),
    ).toThrow(/not an IANA time zone/);
    expect(() => new Registry(appWith([{ name: 'a', at: 'soon', message: 'x' }]))).toThrow(/at must be/);
    expect(
      () => new Registry(appWith([{ name: 'a', cron: '0 9 * * *', timezone: 'Asia/Kolkata', message: 'x' }])),
    ).not.toThrow();
  });
});

describe('timing', () => {
  const now = Date.UTC(2026, 2, 29, 0, 30);

  it('SCHED-5: the minimum interval is checked over the upcoming ticks, each refusal naming its field', () => {
    const timing = (cron: string) => ({ cron, at: null, timezone: 'UTC' });
    expect(timingProblem(timing('*/30 * * * * *'), now, 60)?.code).toBe('invalid_cron');
    expect(timingProblem(timing('* * * * *'), now, 60)).toBeNull();
    expect(timingProblem(timing('0,30 0 0 * * *'), now, 60)?.message).toMatch(/30 s apart/);
    expect(timingProblem(timing('*/2 * * * * *'), now, 1)).toBeNull();
    expect(timingProblem({ cron: '0 9 * * *', at: null, timezone: 'Nowhere/Else' }, now, 60)?.code).toBe(
      'invalid_timezone',
    );
    expect(timingProblem({ cron: null, at: now - 1, timezone: 'UTC' }, now, 60)?.code).toBe('invalid_at');
  });

  it('SCHED-4: a late alarm collapses the backlog into its latest tick, missed past the grace, on time within it', () => {
    const hourly = { cron: '0 * * * *', at: null, timezone: 'UTC' };
    const hour = Date.UTC(2026, 2, 29, 1);
    expect(dueTick(hourly, hour, hour - 1, 'run_once')).toBeNull();
    expect(dueTick(hourly, hour, hour + 5_000, 'skip')).toMatchObject({
      tick: hour,
      missed: false,
      fire: true,
      nextAt: hour + 3_600_000,
    });
    const late = hour + MISSED_GRACE_MS + 1;
    expect(dueTick(hourly, hour, late, 'skip')).toMatchObject({ tick: hour, missed: true, fire: false });
    expect(dueTick(hourly, hour, late, 'run_once')).toMatchObject({ tick: hour, missed: true, fire: true });
    // Down for three hours: one tick, the latest.
    expect(dueTick(hourly, hour, hour + 3 * 3_600_000 + 10, 'run_once')).toMatchObject({
      tick: hour + 3 * 3_600_000,
      collapsed: true,
      missed: false,
    });
  });

  it('SCHED-1: a cron expression is read in its zone, daylight saving time included', () => {
    // 2026-03-29 is the night Paris moves to summer time: nine in Paris is 08:00 UTC that day, 07:00 after.
    const paris = { cron: '0 9 * * *', at: null, timezone: 'Europe/Paris' };
    const first = dueTick(paris, Date.UTC(2026, 2, 28, 8), Date.UTC(2026, 2, 28, 8), 'run_once');
    expect(first?.nextAt).toBe(Date.UTC(2026, 2, 29, 7));
  });
});
