/**
 * The regular expressions of `regex` / `not-regex` checks, matched in linear time (docs/how-it-works.md
 * § Scoring). evals.json is repository content, and a JavaScript RegExp backtracks: `^([\s\S]+)+!$` on a
 * long render would hang the run past every budget and signal. RE2JS (a pure-JavaScript port of RE2, so
 * it goes into the bundled dist/) matches in time linear in the input; the price is that backreferences
 * and lookaround, which need backtracking, are rejected when evals.json is loaded.
 *
 * Differences from JavaScript a check author may meet: `\s` is ASCII whitespace (`[\t\n\f\r ]`), `$` with
 * the `m` flag ends a line at `\n` only, and the `v` flag is not supported.
 */
import { RE2JS } from 're2js';
import { SkillclimbError, messageOf } from '../errors.js';

/** A render longer than this is not matched at all (the check fails, saying why): no model writes one. */
export const MAX_CHECK_INPUT_CHARS = 200_000;
/** RE2's own measure of a compiled pattern's cost; far above any hand-written check. */
export const MAX_CHECK_PROGRAM_SIZE = 5_000;

/** A pattern the check engine refuses; the message says why, for `evals.json: …check.value: <message>`. */
export class CheckRegexError extends SkillclimbError {
  readonly kind = 'input-file';
  override name = 'CheckRegexError';
}

export interface CheckRegex {
  /** Whether the pattern matches anywhere in `text` (at its start with the `y` flag), like RegExp.test. */
  test(text: string): boolean;
}

/**
 * Escapes that mean one thing to JavaScript and another (or nothing) to RE2: `\k<name>` and `\1`…`\9`
 * are backreferences, `\A \z \Q \E` are RE2 operators but plain letters in JavaScript.
 */
function unsupportedEscape(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (next === 'k' || /[1-9]/.test(next))) {
        return `backreference \\${next === 'k' ? 'k<…>' : next}`;
      }
      if (!inClass && /[AzQE]/.test(next)) return `\\${next} (an RE2 operator, a plain letter in JavaScript)`;
      i++;
    } else if (ch === '[') {
      inClass = true;
    } else if (ch === ']') {
      inClass = false;
    }
  }
  return undefined;
}

function engineFlags(flags: string): number {
  let result = 0;
  if (flags.includes('i')) result |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) result |= RE2JS.MULTILINE;
  if (flags.includes('s')) result |= RE2JS.DOTALL;
  return result;
}

const WHY = 'checks are matched in linear time, so backreferences and lookahead/lookbehind are not supported';

/**
 * Compiles a check's pattern with its JavaScript flags (`d g i m s u y`; `g` and `d` change nothing for a
 * yes/no match, `y` anchors at the start). Throws CheckRegexError naming the problem: not a valid
 * JavaScript pattern, or one the linear-time engine cannot run.
 */
export function compileCheckRegex(pattern: string, flags = ''): CheckRegex {
  try {
    new RegExp(pattern, flags);
  } catch (err) {
    throw new CheckRegexError(`invalid regular expression (${messageOf(err)})`);
  }
  if (flags.includes('v')) throw new CheckRegexError(`the v flag is not supported (${WHY})`);
  const escape = unsupportedEscape(pattern);
  if (escape !== undefined) throw new CheckRegexError(`${escape} is not supported (${WHY})`);
  let translated = RE2JS.translateRegExp(pattern);
  if (flags.includes('y')) translated = `\\A(?:${translated})`;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translated, engineFlags(flags));
  } catch (err) {
    throw new CheckRegexError(`not supported: ${messageOf(err)} (${WHY})`);
  }
  const size = compiled.programSize();
  if (size > MAX_CHECK_PROGRAM_SIZE) {
    throw new CheckRegexError(`too complex to match (size ${size}, limit ${MAX_CHECK_PROGRAM_SIZE})`);
  }
  return { test: (text) => compiled.test(text) };
}

const cache = new Map<string, CheckRegex>();
const CACHE_LIMIT = 256;

/** compileCheckRegex, compiled once per pattern and flags (every render of a run is checked again). */
export function cachedCheckRegex(pattern: string, flags = ''): CheckRegex {
  const key = `${flags}/${pattern}`;
  let regex = cache.get(key);
  if (regex === undefined) {
    regex = compileCheckRegex(pattern, flags);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, regex);
  }
  return regex;
}
