/**
 * What a command's options mean, as far as permission rules need to know (PERM-4): the spellings of
 * one option that are the same option. `rm -rf`, `rm -fr`, `rm -r -f`, `rm -R --force` and
 * `rm --recursive -f` all remove recursively and by force; a rule written with one spelling must
 * catch the others. Options not listed keep their own spelling.
 */

/** Per command: a long option or an uppercase alias, and the short option it is the same as. */
// biome-ignore format: one option per entry reads better as a table
const ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  rm: { '--recursive': '-r', '-R': '-r', '--force': '-f', '--dir': '-d', '--interactive': '-i', '--verbose': '-v' },
  cp: { '--recursive': '-r', '-R': '-r', '--force': '-f', '--archive': '-a', '--no-clobber': '-n', '--verbose': '-v' },
  mv: { '--force': '-f', '--no-clobber': '-n', '--interactive': '-i', '--verbose': '-v' },
  mkdir: { '--parents': '-p', '--verbose': '-v' },
  rmdir: { '--parents': '-p' },
  chmod: { '--recursive': '-R' },
  sed: { '--in-place': '-i', '--expression': '-e', '--quiet': '-n', '--silent': '-n', '--regexp-extended': '-E' },
  grep: { '--recursive': '-r', '-R': '-r', '--ignore-case': '-i', '--invert-match': '-v' },
  ls: { '--all': '-a', '--recursive': '-R' },
  tee: { '--append': '-a' },
  touch: { '--no-create': '-c' },
  ln: { '--symbolic': '-s', '--force': '-f' },
  tar: { '--extract': '-x', '--create': '-c', '--file': '-f' },
};

/**
 * Commands whose options are whole words after a single dash (`find -delete`, `find -exec`): they
 * are kept whole instead of being split into letters.
 */
const WORD_OPTION_COMMANDS = new Set(['find', 'test', '[', '[[', 'expr']);

/** The canonical spelling of option `word` of `command`, or null when `word` is not an option. */
export function canonicalOptions(command: string, word: string): string[] | null {
  if (word === '-' || !word.startsWith('-') || /^-\d/.test(word)) return null;
  const aliases = ALIASES[command] ?? {};
  if (word.startsWith('--')) {
    const name = word.split('=', 1)[0] as string;
    return [aliases[name] ?? name];
  }
  if (WORD_OPTION_COMMANDS.has(command)) return [word];
  // `-rf` is `-r -f`; letters stop at the first other character (`-n5`, `-i.bak`: a value follows).
  const letters = /^-([A-Za-z]+)/.exec(word)?.[1];
  if (!letters) return [word];
  return [...letters].map((letter) => aliases[`-${letter}`] ?? `-${letter}`);
}
