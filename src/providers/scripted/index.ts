/** Scripted models (THR-4): replies from a script, for tests, and the offline demo of `npm run dev`. */
export { demoScript } from './demo-script.js';
export { ScriptedProvider } from './scripted.js';
