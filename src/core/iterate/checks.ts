/**
 * `check` assertions (skillclimb's addition, docs/how-it-works.md § Scoring): decided by code against a render, no model call.
 * Pure: no I/O.
 */
import { cachedCheckRegex, MAX_CHECK_INPUT_CHARS } from './check-regex.js';
import type { Check } from './evals.js';
import { countTextLines } from './lines.js';
import { messageOf } from '../errors.js';

export interface CheckVerdict {
  pass: boolean;
  /** Shown as `grader_reason` when the pair fails, so the editor sees why. */
  reason: string;
}

function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => w !== '').length;
}

function positive(check: Check, output: string): CheckVerdict {
  switch (check.type) {
    case 'contains':
    case 'not-contains': {
      const found = output.includes(check.value);
      return { pass: found, reason: `${found ? 'contains' : 'does not contain'} ${quote(check.value)}` };
    }
    case 'icontains':
    case 'not-icontains': {
      const found = output.toLowerCase().includes(check.value.toLowerCase());
      return {
        pass: found,
        reason: `${found ? 'contains' : 'does not contain'} ${quote(check.value)} (case-insensitive)`,
      };
    }
    case 'regex':
    case 'not-regex': {
      const shown = `/${check.value}/${check.flags ?? ''}`;
      // Linear-time matching (src/core/iterate/check-regex.ts), and never on unbounded input.
      if (output.length > MAX_CHECK_INPUT_CHARS) {
        throw new Error(
          `output too long to match (${output.length} characters, limit ${MAX_CHECK_INPUT_CHARS})`,
        );
      }
      const found = cachedCheckRegex(check.value, check.flags ?? '').test(output);
      return { pass: found, reason: `${found ? 'matches' : 'does not match'} ${shown}` };
    }
    case 'max-lines': {
      const lines = countTextLines(output);
      return { pass: lines <= check.value, reason: `${lines} lines (max ${check.value})` };
    }
    case 'max-words': {
      const words = countWords(output);
      return { pass: words <= check.value, reason: `${words} words (max ${check.value})` };
    }
    case 'is-json': {
      try {
        JSON.parse(output.trim());
        return { pass: true, reason: 'is valid JSON' };
      } catch (err) {
        return { pass: false, reason: `is not valid JSON (${messageOf(err)})` };
      }
    }
  }
}

/**
 * Evaluates one check against a render. A pattern that cannot be matched (invalid, or beyond the
 * linear-time engine — both normally rejected when evals.json loads) or a render too long to match fails
 * the pair with a reason rather than throwing, negated checks included: the broken assertion then shows
 * up in `failed_assertions` on every score while the rest of the skill is still graded.
 */
export function evaluateCheck(check: Check, output: string): CheckVerdict {
  let verdict: CheckVerdict;
  try {
    verdict = positive(check, output);
  } catch (err) {
    const message = messageOf(err);
    const why = message.startsWith('output too long') ? message : `invalid pattern (${message})`;
    return { pass: false, reason: `check ${check.type}: ${why}` };
  }
  const negated = check.type.startsWith('not-');
  const pass = negated ? !verdict.pass : verdict.pass;
  return { pass, reason: `check ${check.type}: output ${verdict.reason}` };
}
