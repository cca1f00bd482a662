/**
 * The JSON in a final answer, for a `json_schema` assertion. Models often wrap JSON in prose or a
 * fenced block, so three readings are tried in order: the whole text, the first fenced code block,
 * then the span from the first `{` or `[` to the last matching closer.
 */
export type FinalJson = { ok: true; value: unknown } | { ok: false; why: string };

function parse(text: string): { ok: true; value: unknown } | null {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return null;
  }
}

export function finalJson(text: string): FinalJson {
  const whole = parse(text.trim());
  if (whole) return whole;
  const fenced = /```[a-zA-Z0-9_-]*\n([\s\S]*?)```/.exec(text);
  const inFence = fenced ? parse((fenced[1] as string).trim()) : null;
  if (inFence) return inFence;
  const start = text.search(/[[{]/);
  if (start >= 0) {
    const closer = text[start] === '{' ? '}' : ']';
    const end = text.lastIndexOf(closer);
    const span = end > start ? parse(text.slice(start, end + 1)) : null;
    if (span) return span;
  }
  return { ok: false, why: 'the final answer holds no JSON (whole, fenced or from its first { or [)' };
}
