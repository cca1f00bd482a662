/**
 * Whether a tool call's arguments contain what an assertion names: every key of the expected object
 * is present with a matching value, recursively; arrays match element by element and must have the
 * same length; anything else must be equal (`Object.is`, so NaN matches NaN).
 */
export function partialMatch(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => partialMatch(actual[index], item))
    );
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).every(
      ([key, value]) => Object.hasOwn(record, key) && partialMatch(record[key], value),
    );
  }
  return Object.is(actual, expected);
}
