/**
 * Why a round's fix left the head as it was, in plain words (docs/how-it-works.md § Review rounds): the
 * loop never reviews a head it reviewed already, so when its own fix changed nothing it waits for one
 * and says why — each refused edit with the rule that refused it.
 */
import type { FixReport } from './outcome.js';
import { counted } from '../text/counted.js';

/** Refusal reasons listed at most (each with its files); the rest are counted. */
const LISTED = 4;

/** `a`, `a and b`, `a, b and c`. */
function joined(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The clause after "the fix changed nothing:", e.g. "2 edits were refused: `.github/workflows/ci.yml`
 * (.github/workflows/ is never edited by the review loop); `src/a.ts` (old_string does not occur in the
 * file)". `showPath` renders a path the model wrote (the App quotes it; the CLI shows it as it is).
 */
export function whyFixChangedNothing(
  fix: FixReport,
  showPath: (path: string) => string = (path) => `\`${path}\``,
): string {
  if (fix.rejected.length > 0) {
    const byReason = new Map<string, string[]>();
    for (const refused of fix.rejected) {
      const paths = byReason.get(refused.reason) ?? [];
      if (!paths.includes(refused.path)) paths.push(refused.path);
      byReason.set(refused.reason, paths);
    }
    const groups = [...byReason].map(([reason, paths]) => `${joined(paths.map(showPath))} (${reason})`);
    const more = groups.length > LISTED ? `; and ${counted(groups.length - LISTED, 'other reason')}` : '';
    const n = fix.rejected.length;
    return `${counted(n, 'edit')} ${n === 1 ? 'was' : 'were'} refused: ${groups.slice(0, LISTED).join('; ')}${more}`;
  }
  switch (fix.noEdit) {
    case 'nothing-to-fix':
      return 'every finding was skipped or resolved in the debate, so there was nothing to fix';
    case 'no-usable-answer':
      return 'the executor gave no usable answer, twice';
    case 'none-proposed':
      return 'the executor proposed no edit';
    default:
      return 'its edits left the files as they were';
  }
}
