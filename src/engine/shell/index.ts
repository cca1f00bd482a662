/** The shell room's door: what the rest of the runtime may use of it. */
export type { CanonicalCommand } from './command-match.js';
export { canonicalCommand, commandName, commandPatternMatches, commandText } from './command-match.js';
export { parseCommandLine, ShellSyntaxError } from './shell-commands.js';
