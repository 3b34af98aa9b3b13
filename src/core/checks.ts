/**
 * `check` assertions (skillclimb's addition, docs/how-it-works.md § Scoring): decided by code against a render, no model call.
 * Pure: no I/O.
 */
import type { Check } from './evals.js';
import { countTextLines } from './lines.js';

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
      // A fresh RegExp per call: with the g or y flag, test() is stateful through lastIndex.
      const found = new RegExp(check.value, check.flags ?? '').test(output);
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
        return { pass: false, reason: `is not valid JSON (${(err as Error).message})` };
      }
    }
  }
}

/**
 * Evaluates one check against a render. An invalid regular expression fails the pair with a reason naming
 * the pattern rather than throwing: the broken assertion then shows up in `failed_assertions` on every
 * score (pointing at the eval file) while the rest of the skill is still graded.
 */
export function evaluateCheck(check: Check, output: string): CheckVerdict {
  let verdict: CheckVerdict;
  try {
    verdict = positive(check, output);
  } catch (err) {
    return { pass: false, reason: `check ${check.type}: invalid pattern (${(err as Error).message})` };
  }
  const negated = check.type.startsWith('not-');
  const pass = negated ? !verdict.pass : verdict.pass;
  return { pass, reason: `check ${check.type}: output ${verdict.reason}` };
}
