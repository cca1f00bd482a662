/**
 * Tool design lint (DEF-7, seed 002): checks a tool's name, description and argument schema against the
 * tool design rules. A model calls a tool correctly when the name carries the meaning and the description
 * is one verb-led English sentence about the parameters, with no usage manual, no trigger conditions, no
 * comparisons with other tools and no output schema; optional arguments declare a default so a handler
 * never has to guess. Findings are advice: they are reported, never thrown, so the caller decides whether
 * they are warnings (user tools) or failures (built-in tools).
 */
import type { z } from 'zod';
import type { AnyToolDefinition } from './define-tool.js';

/** Every rule, by its stable id, with what it asks for. */
export const TOOL_LINT_RULES = {
  'name-format': 'the tool name is snake_case and 1 to 64 characters (DEF-4)',
  'description-one-sentence': 'the description is a single sentence',
  'description-verb-led': 'the description starts with an imperative verb',
  'description-no-trigger': 'the description states no trigger conditions ("Use when ...")',
  'description-no-comparison': 'the description does not compare the tool with other tools',
  'description-no-output-schema': 'the description does not describe the output',
  'english-only': 'the description and argument descriptions are in English (Latin script only)',
  'optional-needs-default': 'every optional argument declares a default',
} as const;

export type ToolLintRule = keyof typeof TOOL_LINT_RULES;

export interface LintFinding {
  tool: string;
  rule: ToolLintRule;
  message: string;
}

export interface LintToolOptions {
  /** Every registered tool name, so a description that mentions another tool can be caught. */
  toolNames?: readonly string[];
}

const NAME_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const NAME_MAX = 64;

/** Lints one tool registered under `name`. */
export function lintTool(name: string, tool: AnyToolDefinition, options: LintToolOptions = {}): LintFinding[] {
  const findings: LintFinding[] = [];
  const report = (rule: ToolLintRule, message: string): void => {
    findings.push({ tool: name, rule, message });
  };

  if (name.length === 0 || name.length > NAME_MAX) {
    report('name-format', `tool name "${name}" is ${name.length} characters long; names are 1 to ${NAME_MAX}`);
  } else if (!NAME_PATTERN.test(name)) {
    report('name-format', `tool name "${name}" is not snake_case (lowercase letters, digits, single underscores)`);
  }

  const description = typeof tool.description === 'string' ? tool.description.trim() : '';
  const secondSentence = findSecondSentence(description);
  if (secondSentence !== undefined) {
    report('description-one-sentence', `description has more than one sentence; the second starts "${secondSentence}"`);
  }
  const verbProblem = checkVerbLed(description);
  if (verbProblem !== undefined) report('description-verb-led', verbProblem);

  const triggers = matchAll(description, TRIGGER_PATTERNS);
  if (triggers.length > 0)
    report('description-no-trigger', `description states when to call the tool: ${quote(triggers)}`);

  const others = (options.toolNames ?? []).filter((other) => other !== name);
  const comparisons = [...matchAll(description, COMPARISON_PATTERNS), ...mentionedTools(description, others)];
  if (comparisons.length > 0) {
    report('description-no-comparison', `description compares with other tools: ${quote(comparisons)}`);
  }

  const outputProse = matchAll(description, OUTPUT_SCHEMA_PATTERNS);
  if (outputProse.length > 0) {
    report('description-no-output-schema', `description describes the output: ${quote(outputProse)}`);
  }

  const foreign = foreignText(description);
  if (foreign.length > 0) report('english-only', `description contains non-Latin text: ${quote(foreign)}`);

  const args = (tool.args ?? null) as z.ZodType | null;
  if (args !== null) {
    for (const field of walkFields(args)) {
      const label = field.path.length === 0 ? 'the arguments object' : `argument "${field.path}"`;
      for (const text of field.descriptions) {
        const foreignInArg = foreignText(text);
        if (foreignInArg.length > 0) {
          report('english-only', `${label} has a description with non-Latin text: ${quote(foreignInArg)}`);
        }
      }
      if (field.optional && !field.defaulted) {
        report('optional-needs-default', `optional ${label} declares no default; add .default(...)`);
      }
    }
  }
  return findings;
}

/** Lints every tool of an application, each knowing the others' names. */
export function lintTools(tools: Readonly<Record<string, AnyToolDefinition>>): LintFinding[] {
  const toolNames = Object.keys(tools);
  return Object.entries(tools).flatMap(([name, tool]) => lintTool(name, tool, { toolNames }));
}

/** Quotes the phrases, dropping any that only repeats part of another ("whenever" in "Call whenever"). */
function quote(phrases: readonly string[]): string {
  const byKey = new Map<string, string>();
  for (const phrase of phrases) if (!byKey.has(phrase.toLowerCase())) byKey.set(phrase.toLowerCase(), phrase);
  const keys = [...byKey.keys()];
  return [...byKey]
    .filter(([key]) => !keys.some((other) => other !== key && other.includes(key)))
    .map(([, phrase]) => `"${phrase}"`)
    .join(', ');
}

/** Every match of every pattern, in the order they appear in the text. */
function matchAll(text: string, patterns: readonly RegExp[]): string[] {
  const found: Array<{ at: number; phrase: string }> = [];
  for (const pattern of patterns) {
    for (const match of text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))) {
      found.push({ at: match.index, phrase: match[0].replace(/\s+/g, ' ') });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.phrase);
}

// --- description-one-sentence ------------------------------------------------------------------------

/** Abbreviations whose period does not end a sentence; initialisms such as "U.S." are handled apart. */
const ABBREVIATION = /\b(?:etc|vs|approx|incl|excl|esp|resp|cf|min|max|no|fig|al|mr|mrs|ms|dr|st|jr|sr|inc|ltd)\./gi;
const INITIALISM = /\b(?:[A-Za-z]\.){2,}/g;
/**
 * A sentence ends at . ! or ? (optionally followed by a closing quote or bracket), then whitespace, then
 * something that is not a lowercase letter; or at a line break followed by a new line of text. The
 * lowercase exception keeps unknown abbreviations ("approx. value") from splitting a sentence.
 */
const SENTENCE_BREAK = /[.!?]+["')\]]*\s+(?=[^\s\p{Ll}])|\n\s*(?=\S)/u;

function findSecondSentence(description: string): string | undefined {
  const masked = description
    .replace(INITIALISM, (match) => match.replace(/\./g, '\u2024'))
    .replace(ABBREVIATION, (match) => match.replace(/\./g, '\u2024'));
  const match = SENTENCE_BREAK.exec(masked);
  if (match === null) return undefined;
  const rest = description.slice(match.index + match[0].length);
  return rest.length > 60 ? `${rest.slice(0, 60).trimEnd()}...` : rest;
}

// --- description-verb-led ----------------------------------------------------------------------------

/**
 * Without a dictionary, "imperative verb" is approximated by ruling out what a description most often
 * starts with instead: a determiner, pronoun or preposition, a self-reference ("Tool", "This", "Used",
 * "Use this tool to"), a third-person verb ("Returns", "Fetches"), an -ing form ("Searching") or a past
 * participle ("Based on"). Anything else is accepted, so a noun phrase the lists miss goes unflagged.
 */
const NOT_A_VERB: Readonly<Record<string, string>> = Object.fromEntries([
  ...['a', 'an', 'the'].map((word) => [word, 'an article']),
  ...['this', 'that', 'these', 'those', 'each', 'every', 'all', 'any', 'some', 'no', 'my', 'your', 'our', 'its'].map(
    (word) => [word, 'a determiner'],
  ),
  ...['their', 'it', 'i', 'we', 'you', 'they', 'he', 'she'].map((word) => [word, 'a pronoun']),
  ...['for', 'to', 'from', 'with', 'without', 'by', 'in', 'on', 'at', 'of', 'via', 'about', 'after', 'before'].map(
    (word) => [word, 'a preposition'],
  ),
  ...['when', 'whenever', 'if', 'while', 'as', 'into'].map((word) => [word, 'a conjunction or preposition']),
  ...['tool', 'used', 'use', 'helper', 'utility', 'function', 'allows', 'lets'].map((word) => [
    word,
    'a description of the tool rather than of its action',
  ]),
  ...['can', 'will', 'should', 'may', 'must', 'is', 'are', 'was', 'has', 'does'].map((word) => [word, 'an auxiliary']),
]);
/** Imperative verbs that look like an -ing form. */
const VERBS_ENDING_IN_ING = new Set([
  'bring',
  'string',
  'sling',
  'swing',
  'sting',
  'wring',
  'spring',
  'fling',
  'cling',
]);
/** Imperative verbs that look like a past participle ("-eed" verbs are excluded by pattern). */
const VERBS_ENDING_IN_ED = new Set(['embed', 'shred', 'imbed']);

function checkVerbLed(description: string): string | undefined {
  const first = /^[\s"'`(]*([\p{L}][\p{L}'-]*)/u.exec(description)?.[1];
  if (first === undefined) {
    const token = description.split(/\s+/)[0] ?? '';
    return `description should start with an imperative verb, not "${token}"`;
  }
  const word = first.toLowerCase();
  const expected = `description should start with an imperative verb ("Search ...", "Get ...")`;
  const kind = NOT_A_VERB[word];
  if (kind !== undefined) return `${expected}; "${first}" is ${kind}`;
  if (word.length >= 5 && word.endsWith('ing') && !VERBS_ENDING_IN_ING.has(word)) {
    return `${expected}; "${first}" is an -ing form`;
  }
  if (word.length >= 5 && /[^e]ed$/.test(word) && !VERBS_ENDING_IN_ED.has(word)) {
    return `${expected}; "${first}" is a past participle`;
  }
  // "-ss", "-us", "-is", "-as" endings are base forms ("Process", "Focus", "Alias"), not third person.
  if (word.length >= 3 && word.endsWith('s') && !/(ss|us|is|as)$/.test(word)) {
    return `${expected}; "${first}" looks like a third-person verb or a plural noun (write "${baseForm(first)}")`;
  }
  return undefined;
}

/** "Returns" -> "Return", "Fetches" -> "Fetch", "Queries" -> "Query". */
function baseForm(word: string): string {
  if (/[^aeiou]ies$/i.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|ss|x|z|o)es$/i.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

// --- description-no-trigger / -no-comparison / -no-output-schema ------------------------------------

const TRIGGER_PATTERNS: readonly RegExp[] = [
  /\b(?:use|call|invoke|run|trigger|pick|choose)(?:\s+(?:this|it|me))?(?:\s+(?:tool|function))?(?:\s+only)?\s+(?:when(?:ever)?|if|after|before|once)\b/i,
  /\bwhen(?:ever)?\s+(?:the\s+)?(?:user|assistant|model|agent|you)\b/i,
  /\bif\s+(?:the\s+)?(?:user|assistant|model|agent|you)\b/i,
  /\bwhenever\b/i,
];

const COMPARISON_PATTERNS: readonly RegExp[] = [
  /\binstead\s+of\b/i,
  /\brather\s+than\b/i,
  /\bunlike\b/i,
  /\b(?:better|faster|slower|cheaper|worse)\s+than\b/i,
  /\bprefer(?:red|s|ably|able)?\b/i,
  /\bsimilar\s+to\b/i,
  /\bas\s+opposed\s+to\b/i,
  /\bcompared\s+(?:to|with)\b/i,
  /\b(?:an\s+)?alternative\s+to\b/i,
  /\bin\s+contrast\s+(?:to|with)\b/i,
];

/**
 * A tool name with an underscore is distinctive enough to match as a word; a one-word name ("search")
 * is ordinary English, so it counts only when quoted ("`search`", "'search'").
 */
function mentionedTools(description: string, names: readonly string[]): string[] {
  return names.filter((name) => {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = /[_\d]/.test(name)
      ? new RegExp(`(?<![\\w])${escaped}(?![\\w])`)
      : new RegExp(`[\`'"]${escaped}[\`'"]`);
    return pattern.test(description);
  });
}

const OUTPUT_SCHEMA_PATTERNS: readonly RegExp[] = [
  /\breturn(?:s|ing)?\s+(?:(?:a|an|the)\s+)?(?:json|object|array|dictionary|dict|map|hash|tuple|record|string|boolean|number|integer|list\s+of\s+objects)\b/i,
  /\b(?:the\s+)?(?:response|result|output)s?\s+(?:contains?|includes?|has|is|are|will\s+be|looks?\s+like|format|schema|shape)\b/i,
  /\b(?:output|response|result|returns?)\s*:/i,
  /\b(?:fields?|keys?|properties)\s*:/i,
  /\bwith\s+(?:the\s+)?(?:fields?|keys?|properties)\b/i,
  /\{\s*["']?\w+["']?\s*:/,
];

// --- english-only ------------------------------------------------------------------------------------

/**
 * A letter outside the Latin script (Latin-1's micro sign aside), or a combining mark of another script.
 * Punctuation, digits and symbols are script-neutral and never flagged.
 */
const FOREIGN_CHAR = String.raw`[^\P{L}\p{Script=Latin}\u00B5]|[^\P{M}\p{Script=Latin}\p{Script=Inherited}]`;
const FOREIGN_RUN = new RegExp(`(?:${FOREIGN_CHAR})+(?:\\s+(?:${FOREIGN_CHAR})+)*`, 'gu');

function foreignText(text: string): string[] {
  return [...text.matchAll(FOREIGN_RUN)].map((match) => match[0]);
}

// --- argument schema walk ----------------------------------------------------------------------------

interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: readonly z.ZodType[];
  valueType?: z.ZodType;
}

interface FieldInfo {
  /** Dotted path; "[]" marks an array element, "{}" a record value, "" the arguments object itself. */
  path: string;
  optional: boolean;
  defaulted: boolean;
  /** `.describe()` texts found anywhere along the field's wrappers. */
  descriptions: string[];
}

function defOf(schema: z.ZodType): ZodDef {
  return (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
}

/** Every object property (and the root), at any depth, the way schema.ts walks a schema. */
function* walkFields(schema: z.ZodType, path = ''): Generator<FieldInfo> {
  const field: FieldInfo = { path, optional: false, defaulted: false, descriptions: [] };
  let current = schema;
  for (;;) {
    const text = current.description;
    if (typeof text === 'string' && !field.descriptions.includes(text)) field.descriptions.push(text);
    const def = defOf(current);
    if (def.type === 'optional') field.optional = true;
    else if (def.type === 'default') field.defaulted = true;
    else if (def.type !== 'nullable') break;
    current = def.innerType as z.ZodType;
  }
  yield field;
  yield* walkContainer(current, path);
}

function* walkContainer(schema: z.ZodType, path: string): Generator<FieldInfo> {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        yield* walkFields(child, path === '' ? key : `${path}.${key}`);
      }
      return;
    case 'array':
      yield* walkNested(def.element as z.ZodType, `${path}[]`);
      return;
    case 'record':
      yield* walkNested(def.valueType as z.ZodType, `${path}{}`);
      return;
    case 'union':
      for (const option of def.options ?? []) yield* walkNested(option, path);
      return;
    default:
      return;
  }
}

/**
 * An array element, record value or union option is not an argument of its own: an optional there is
 * not "an optional argument", so only its descriptions and the fields inside it are checked.
 */
function* walkNested(schema: z.ZodType, path: string): Generator<FieldInfo> {
  for (const field of walkFields(schema, path)) {
    yield field.path === path ? { ...field, optional: false } : field;
  }
}
