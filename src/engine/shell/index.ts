/**
 * Shell command lines as the rules see them (PERM-4): parsed into simple commands and redirections,
 * and commands brought to one canonical form so a rule holds however a command is spelled.
 */
export type { CanonicalCommand } from './command-match.js';
export { canonicalCommand, commandName, commandPatternMatches, commandText } from './command-match.js';
export { parseCommandLine, ShellSyntaxError } from './shell-commands.js';
