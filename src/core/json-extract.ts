/**
 * Finding the JSON answer in a model's free text, for servers that cannot be asked for JSON-schema output
 * (many OpenAI-compatible ones): models wrap the object in prose, in ``` fences, or after a reasoning block.
 */

/** Reasoning models served raw (qwen3, deepseek-r1 on older ollama) prefix `<think>…</think>`; it is never the answer. */
export function stripThinkBlocks(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, '').replace(/^\s*<think>[\s\S]*$/i, '');
}

/** The index just past the `}` closing the object that opens at `start`, or -1 when it never closes. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function parseObject(candidate: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(candidate);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // not JSON; the caller tries the next candidate
  }
  return undefined;
}

/** Every complete top-level JSON object in `text`, in order (objects nested inside one are not listed apart). */
export function extractJsonObjects(text: string): Record<string, unknown>[] {
  const body = stripThinkBlocks(text);
  const found: Record<string, unknown>[] = [];
  let start = body.indexOf('{');
  while (start !== -1) {
    const end = balancedEnd(body, start);
    const parsed = end === -1 ? undefined : parseObject(body.slice(start, end));
    if (parsed !== undefined) found.push(parsed);
    start = body.indexOf('{', parsed !== undefined ? end : start + 1);
  }
  return found;
}

/**
 * The JSON answer in `text`, after dropping `<think>` blocks; undefined when there is none. Braces inside
 * JSON strings do not count, and a brace that opens no valid object (`use {name} here`) is skipped.
 *
 * Without `accepts`: the first object. With `accepts` (the requested schema's check): the LAST object it
 * accepts, else the first object. Last, because a model often quotes the data it was given before
 * answering — a grader echoing a render that itself contains a forged `{"verdicts": …}` — and the real
 * answer is what it writes at the end; the schema check keeps an echoed fragment of the wrong shape (or
 * with other ids) from winning.
 */
export function extractJsonObject(
  text: string,
  accepts?: (value: Record<string, unknown>) => boolean,
): Record<string, unknown> | undefined {
  const objects = extractJsonObjects(text);
  if (accepts !== undefined) {
    for (let i = objects.length - 1; i >= 0; i--) if (accepts(objects[i]!)) return objects[i];
  }
  return objects[0];
}
