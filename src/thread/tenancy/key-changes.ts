/** Telling a key's tenant object that the key's row changed (IDN-2), before the change is answered. */
import type { RuntimeEnv } from '../bindings/index.js';
import { tenantStub } from './limits-cache.js';

export async function keyChanged(env: RuntimeEnv, tenant: string, id: string): Promise<void> {
  await tenantStub(env, tenant)?.keyChanged(id);
}
