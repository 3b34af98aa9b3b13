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

/**
 * The first balanced `{…}` in `text` that parses as a JSON object (fenced or not), after dropping
 * `<think>` blocks; undefined when there is none. Braces inside JSON strings do not count, and a brace
 * that opens no valid object (`use {name} here`) is skipped, not fatal.
 */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const body = stripThinkBlocks(text);
  for (let start = body.indexOf('{'); start !== -1; start = body.indexOf('{', start + 1)) {
    const end = balancedEnd(body, start);
    if (end === -1) continue;
    const parsed = parseObject(body.slice(start, end));
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}
