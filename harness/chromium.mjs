/**
 * Where the browser tests find Chromium. The project downloads no browser of its own (a closed
 * network cannot, and a system browser is one less thing to keep current): it uses `CHROMIUM_PATH`
 * when set, else the first Chromium or Chrome installed in a usual place. When none is found, the
 * message names the one command that installs it, so `npm test` fails in its first second with a
 * step to take instead of minutes later with a launch error.
 */
import { accessSync, constants } from 'node:fs';

const USUAL_PLACES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export const CHROMIUM_MISSING = [
  'The inspector tests (the "browser" project of npm test) drive a real Chromium, and none was found.',
  'Install it once, then run npm test again:',
  '  Debian or Ubuntu:  sudo apt-get install chromium',
  '  macOS:             brew install --cask chromium   (or use an installed Google Chrome)',
  'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
].join('\n');

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium to launch, or null when there is none. A CHROMIUM_PATH that is not executable is none. */
export function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) return isExecutable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  return USUAL_PLACES.find(isExecutable) ?? null;
}
