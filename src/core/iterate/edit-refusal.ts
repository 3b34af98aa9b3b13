/**
 * Edits the loop refuses whatever they score (docs/how-it-works.md § Composite): one that breaks a valid
 * frontmatter, one that adds a violation of the Agent Skills specification the skill did not already have,
 * and one that removes most of the skill's substance — against the text it edits and against the text the
 * night started from, so no run of small deletions gets there either. Pure.
 */
import { checkFrontmatter } from './markdown.js';
import { formatViolation, introducedViolations, specViolations } from './skill-spec.js';
import { measureSubstance, substanceLoss } from './substance.js';

interface EditToJudge {
  /** The kept text the edit was made on. */
  before: string;
  after: string;
  /** SKILL.md as the night found it. */
  baseline: string;
  /** The skill's folder name (the specification's `name` must equal it). */
  folder: string;
  /** SKILL.md as the messages name it (repository-relative). */
  file: string;
}

/** Why the edit is refused, or undefined when none of the rules refuses it. */
export function editRefusal(edit: EditToJudge): string | undefined {
  const frontBefore = checkFrontmatter(edit.before);
  const frontAfter = checkFrontmatter(edit.after);
  if (frontBefore.valid && !frontAfter.valid) return `breaks frontmatter: ${frontAfter.reason}`;
  const introduced = introducedViolations(
    specViolations(edit.before, edit.folder),
    specViolations(edit.after, edit.folder),
  );
  if (introduced.length > 0) {
    const listed = introduced.map((v) => formatViolation(edit.file, v)).join('; ');
    return `breaks the Agent Skills specification: ${listed}`;
  }
  const after = measureSubstance(edit.after);
  return (
    substanceLoss(measureSubstance(edit.before), after) ??
    (edit.baseline === edit.before ? undefined : substanceLoss(measureSubstance(edit.baseline), after))
  );
}
