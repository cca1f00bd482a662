/**
 * A pattern a model or a caller wrote that the runtime will not run: a regular expression using a
 * construct that cannot be matched in linear time (a lookahead, a backreference), one too large, or a
 * glob using syntax with no linear-time form (`!(...)`). The message names the construct, so the
 * writer can say the same thing another way.
 */
export class PatternRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatternRefused';
  }
}
