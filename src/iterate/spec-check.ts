/**
 * The Agent Skills specification's rules over the skills a run finds (docs/how-it-works.md § The
 * specification's rules): each skill's SKILL.md read (as a regular file of bounded size, never through a
 * link) and each violation written `<file>: <field>: <detail>`, the file relative to the project. The dry
 * run, `doctor` and the dashboard show them; nothing here stops a skill from running.
 */
import path from 'node:path';
import { formatViolation, specViolations } from '../core/iterate/skill-spec.js';
import { SKILL_FILE, skillPathIn, type SkillLocation } from '../core/iterate/skill-layout.js';
import { EVALS_MAX_BYTES } from './evals-files.js';
import { readRegularFile } from './regular-file.js';
import { linkedSkillFile } from './symlinks.js';

/** Every violation of every skill, in the skills' order; a SKILL.md that cannot be read is left to the queue's reasons. */
export async function specViolationLines(
  project: string,
  skills: readonly SkillLocation[],
): Promise<string[]> {
  const lines: string[] = [];
  for (const skill of skills) {
    const dir = skillPathIn(project, skill);
    if ((await linkedSkillFile(dir)) !== undefined) continue;
    let text: string | undefined;
    try {
      text = await readRegularFile(path.join(dir, SKILL_FILE), EVALS_MAX_BYTES);
    } catch {
      continue;
    }
    if (text === undefined) continue;
    const file = path.posix.join(skill.dir, SKILL_FILE);
    for (const violation of specViolations(text, path.basename(dir)))
      lines.push(formatViolation(file, violation));
  }
  return lines;
}
