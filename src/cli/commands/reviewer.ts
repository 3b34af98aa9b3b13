/**
 * `skillclimb reviewer init`: the review loop's built-in reviewer instructions written as an Agent Skills
 * skill, `<dir>/SKILL.md` (docs/how-it-works.md § The reviewer learns), for a team to start its own reviewer
 * skill from. The file passes the specification's check before it is written, and one that exists is never
 * overwritten. A command of its own, not a `review` subcommand: `review [paths…]` takes paths, and `init`
 * could be one.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, Option } from 'commander';
import { DEFAULT_REVIEWER_SKILL_DIR } from '../../core/reviewer-skill.js';
import {
  REVIEWER_SKILL_FILE,
  builtInReviewerSkill,
  reviewerSkillFile,
} from '../../core/review/reviewer-instructions.js';
import { PRESETS, type Preset } from '../../core/review/state.js';
import { formatViolation, specViolations } from '../../core/iterate/skill-spec.js';
import { repositoryRoot } from '../../git/repo.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';

interface ReviewerInitFlags {
  project?: string;
  dir?: string;
  preset: Preset;
}

async function runReviewerInit(io: CliIo, flags: ReviewerInitFlags): Promise<void> {
  const project = path.resolve(io.cwd, flags.project ?? '.');
  // `.github/` is at the repository's top; outside a repository, the folder given is the top.
  const root = (await repositoryRoot(project)) ?? project;
  const dir = flags.dir ?? DEFAULT_REVIEWER_SKILL_DIR;
  const file = reviewerSkillFile(dir);
  if (file === undefined) {
    throw new UsageError(`reviewer init: --dir ${dir}: not a folder path inside the repository`);
  }
  const folder = path.posix.basename(path.posix.dirname(file));
  const text = builtInReviewerSkill(flags.preset, folder);
  const violations = specViolations(text, folder);
  if (violations.length > 0) {
    // The spec wants `name` = the folder's name, in lowercase letters, digits and hyphens.
    throw new UsageError(`reviewer init: --dir ${dir}: ${formatViolation(file, violations[0]!)}`);
  }
  const target = path.join(root, ...file.split('/'));
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await writeFile(target, text, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UsageError(
        `reviewer init: ${file} exists already in ${root}; nothing was written (edit it, or remove it to ` +
          'start again from the built-in instructions)',
      );
    }
    throw error;
  }
  io.out(
    `wrote ${file} in ${root}: the built-in reviewer instructions (preset ${flags.preset}). Edit it, commit ` +
      'it to the default branch, and the review-loop App reviews with it' +
      (dir === DEFAULT_REVIEWER_SKILL_DIR
        ? ''
        : ` (set \`reviewer_skill: ${dir}\` in .github/review-loop.yml)`) +
      '.\n',
  );
}

export function reviewerCommand(io: CliIo): Command {
  const init = new Command('init')
    .description(
      `Write the built-in reviewer instructions as an Agent Skills skill, <dir>/${REVIEWER_SKILL_FILE}, to edit ` +
        'and commit; an existing file is never overwritten',
    )
    .option('--project <dir>', 'a folder of the repository (default: current directory)')
    .option('--dir <folder>', `the skill's folder in the repository (default: ${DEFAULT_REVIEWER_SKILL_DIR})`)
    .addOption(
      new Option('--preset <preset>', 'which built-in instructions to start from')
        .choices([...PRESETS])
        .default('code'),
    )
    .action(async (flags: ReviewerInitFlags) => {
      await runReviewerInit(io, flags);
    });
  return new Command('reviewer')
    .description("The review loop's reviewer instructions as a skill in the repository")
    .addCommand(init);
}
