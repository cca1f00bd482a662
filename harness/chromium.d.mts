/** Types for chromium.mjs: where the browser tests find Chromium. */

/** What to do when no Chromium is found, as printed by `npm test`. */
export const CHROMIUM_MISSING: string;

/** The Chromium to launch (`CHROMIUM_PATH`, else a usual install place), or null when there is none. */
export function findChromium(env?: Record<string, string | undefined>): string | null;
