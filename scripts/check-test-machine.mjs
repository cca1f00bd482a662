/**
 * The first step of `npm test`: checks that this machine has what the test projects need beyond
 * `npm ci` (today only Chromium, for the inspector tests), and says exactly what to install when
 * it does not, before minutes of other tests run.
 */
import { CHROMIUM_MISSING, findChromium } from '../harness/chromium.mjs';

if (findChromium() === null) {
  console.error(`\n${CHROMIUM_MISSING}\n`);
  process.exit(1);
}
