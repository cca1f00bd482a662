/**
 * What every span of a thread carries (TRACE-3): the thread, its tenant and its owner, so a
 * collector's query for one user's or one tenant's turns finds them.
 */
import { ATTR, type Attributes } from '../../engine/tracing/index.js';
import { DEFAULT_TENANT } from '../access/index.js';
import type { ThreadRecord } from '../storage/index.js';

export function traceAttributes(record: ThreadRecord | null): Attributes {
  if (!record) return {};
  return {
    [ATTR.thread]: record.id,
    [ATTR.tenant]: record.tenant ?? DEFAULT_TENANT,
    ...(record.userId ? { [ATTR.user]: record.userId } : {}),
  };
}
