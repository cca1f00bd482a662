/** What every route of the app sees: the Worker's bindings and the authenticated principal (IDN-1). */
import type { Principal } from '../../thread/access/index.js';
import type { RuntimeEnv } from '../../thread/bindings/index.js';

/**
 * What sign-in sets: the principal the request acts as, and `userId`, its subject, which owns the
 * threads it starts (THR-6).
 */
export type AuthVariables = { principal: Principal; userId: string };

export type HttpEnv = { Bindings: RuntimeEnv; Variables: AuthVariables };
