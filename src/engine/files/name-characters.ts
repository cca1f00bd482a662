/**
 * Which characters a name may hold, and the one Unicode form names are compared in (ATT-3, PERM-1).
 *
 * **One form: NFC.** The same text can be written with different code points: `é` is U+00E9 or `e`
 * followed by U+0301, and macOS clients send the second (NFD). Rules, the thread's storage and every
 * path a tool, the shell or a client names are brought to Normalization Form C, so both spellings
 * are one path and a rule written in either covers both. NFC rather than NFD because it is what
 * keyboards, the web (W3C), JavaScript literals and most stored text already use, so almost every
 * name is unchanged by it; rather than NFKC because compatibility folding changes what a name says
 * (`ﬁ` becomes `fi`, `²` becomes `2`, full-width `ｓｅｃｒｅｔ` becomes `secret`): such names stay other
 * names, stored under other keys, and none of them reaches a file stored under the name it imitates.
 *
 * **Refused: what a reader cannot see.** A name holding any of these is refused, never cleaned:
 * - format characters (Unicode category Cf): the bidirectional controls U+202A–U+202E, U+2066–U+2069,
 *   U+200E, U+200F and U+061C, which reorder what is shown (`%E2%80%AEtxt.exe`); zero-width
 *   U+200B–U+200D, the word joiner U+2060 and invisible operators U+2061–U+2064, U+FEFF, the soft
 *   hyphen U+00AD, tags U+E0000–U+E007F, interlinear annotations U+FFF9–U+FFFB, ...;
 * - every other default-ignorable code point (drawn as nothing): variation selectors U+FE00–U+FE0F
 *   and U+E0100–U+E01EF, U+180E and the Mongolian selectors, Hangul fillers U+115F, U+1160, U+3164,
 *   U+FFA0, the combining grapheme joiner U+034F, ...;
 * - noncharacters (U+FDD0–U+FDEF, U+FFFE, U+FFFF and their kin in every plane);
 * - a surrogate that is not half of a pair (text that is not Unicode at all).
 * Control characters and the line separators are refused by the path rules themselves.
 */

const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\p{Cs}]/u;

/** `U+202E`: how a message names a code point. */
export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first character of `text` a name may not hold, as `U+XXXX`, or null when there is none. */
export function invisibleCharacterIn(text: string): string | null {
  const found = INVISIBLE.exec(text);
  return found ? codePointLabel(found[0]) : null;
}

/**
 * Text in the form names are compared in (NFC). Check `invisibleCharacterIn` first: normalising
 * replaces an unpaired surrogate with U+FFFD, which would hide it.
 */
export function canonicalText(text: string): string {
  return text.normalize('NFC');
}
