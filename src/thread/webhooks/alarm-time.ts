/**
 * The Tenant object's alarm, shared by the parts that need it (webhook deliveries here; schedules
 * have their own helper): each sets it for its own next time unless an earlier one is set, and the
 * alarm runs each part's due work, which sets it again for what is left.
 */

/** Sets the alarm for `at` unless one is set for an earlier (or the same) time. */
export async function armAlarmFor(storage: DurableObjectStorage, at: number): Promise<void> {
  const current = await storage.getAlarm();
  if (current === null || current > at) await storage.setAlarm(at);
}
