/**
 * The principal of a WebSocket upgrade, as the Worker hands it to the thread's object: a header the
 * Worker sets after sign-in and overwrites whatever a caller sent, since a Durable Object's fetch is
 * reachable only through the Worker (IDN-1).
 */
import { isRole, type Principal } from '../access/index.js';

export const PRINCIPAL_HEADER = 'x-thread-principal';

export function principalHeaderValue(principal: Principal): string {
  return JSON.stringify(principal);
}

/** The principal the header names, or null for anything that is not one. */
export function principalFromHeader(value: string | null): Principal | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as Partial<Principal>;
    const { tenant, subject, role, via } = parsed;
    if (typeof tenant !== 'string' || typeof subject !== 'string' || !isRole(role) || typeof via !== 'string') {
      return null;
    }
    return parsed as Principal;
  } catch {
    return null;
  }
}
