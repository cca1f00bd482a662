/** What every route of the app sees: the Worker's bindings and the authenticated user (THR-6). */
import type { RuntimeEnv } from '../../thread/bindings/index.js';

/** What the bearer-key middleware sets: the user the key stands for. */
export type AuthVariables = { userId: string };

export type HttpEnv = { Bindings: RuntimeEnv; Variables: AuthVariables };
