/**
 * `skillclimb doctor`'s check of the skills themselves (docs/how-it-works.md § The specification's rules):
 * the skills setting's skills, each rule of the Agent Skills specification their SKILL.md breaks, named
 * with the file and the field. A broken rule does not stop a night and does not change doctor's exit code
 * (that is the models'): the lines say what to fix.
 */
import { DEFAULT_SKILLS_GLOBS } from '../../core/iterate/skill-layout.js';
import { repositoryRoot } from '../../git/repo.js';
import { findSkills } from '../../iterate/skill-finder.js';
import { specViolationLines } from '../../iterate/spec-check.js';

/** The `skills:` lines doctor prints after the models; '' when the setting finds no skill (a review-only project). */
export async function doctorSkillsReport(
  project: string,
  globs: readonly string[] | undefined,
): Promise<string> {
  const setting = globs ?? DEFAULT_SKILLS_GLOBS;
  const found = await findSkills({
    project,
    repository: (await repositoryRoot(project)) ?? project,
    globs: setting,
  });
  const count = found.skills.length;
  if (count === 0) return '';
  const head = `skills: ${count} found with ${setting.join(', ')}`;
  const lines = await specViolationLines(project, found.skills);
  if (lines.length === 0) return `${head}; every SKILL.md follows the Agent Skills specification\n`;
  const rules = `${lines.length} rule${lines.length === 1 ? '' : 's'}`;
  return `${head}; ${rules} of the Agent Skills specification broken:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}
