/**
 * Where a project keeps its skills and where a run writes, as pure path functions: the one module that
 * knows the layout `.claude/skills/<name>/{SKILL.md, evals/{evals.json, test_scenarios.json,
 * required_sections.json, results.tsv}}`, the runs folder and the per-skill worktree and branch names
 * (docs/how-it-works.md § The queue).
 */
import path from 'node:path';

/** The skills folder relative to the project, `/`-separated (also how it reads in messages). */
export const SKILLS_DIR = '.claude/skills';
export const SKILL_FILE = 'SKILL.md';
export const EVALS_DIR = 'evals';
export const EVALS_FILE = 'evals.json';
export const SCENARIOS_FILE = 'test_scenarios.json';
export const REQUIRED_SECTIONS_FILE = 'required_sections.json';
export const RESULTS_FILE = 'results.tsv';
/** Morning summaries and local park reports, relative to the project. */
export const RUNS_DIR = 'docs/skill-iterate-runs';
/** The basename prefix of the per-skill worktrees (`worktree_skill-iterate-<skill>-<epoch>`). */
export const WORKTREE_PREFIX = 'worktree_skill-iterate-';

/** `.claude/skills/<skill>`: relative to the project (or, in a worktree, below the repository prefix). */
export function skillRelPath(skill: string, prefix = ''): string {
  return path.posix.join(prefix, SKILLS_DIR, skill);
}

/** `<project>/.claude/skills`. */
export function skillsDirOf(project: string): string {
  return path.join(project, ...SKILLS_DIR.split('/'));
}

/** `<project>/.claude/skills/<skill>`. */
export function skillDirOf(project: string, skill: string): string {
  return path.join(skillsDirOf(project), skill);
}

/** The project of a `<project>/.claude/skills/<name>` folder, or undefined for a folder elsewhere. */
export function projectOfSkillDir(skillDir: string): string | undefined {
  const skills = path.dirname(skillDir);
  const claude = path.dirname(skills);
  const [claudeName, skillsName] = SKILLS_DIR.split('/');
  if (path.basename(skills) === skillsName && path.basename(claude) === claudeName)
    return path.dirname(claude);
  return undefined;
}

/** `<skillDir>/SKILL.md` (a relative `/`-separated folder gives a relative `/`-separated path). */
export function skillFileOf(skillDir: string): string {
  return path.join(skillDir, SKILL_FILE);
}

/** `<skillDir>/evals`. */
export function evalsDirOf(skillDir: string): string {
  return path.join(skillDir, EVALS_DIR);
}

/** `<project>/.claude/skills/<skill>/evals/results.tsv`, absolute. */
export function resultsTsvPath(project: string, skill: string): string {
  return path.resolve(evalsDirOf(skillDirOf(project, skill)), RESULTS_FILE);
}

/** Whether a project-relative `/`-separated path is some skill's `.claude/skills/<name>/evals/results.tsv`. */
export function isResultsTsvPath(relPath: string): boolean {
  const parts = relPath.split('/');
  const skillsParts = SKILLS_DIR.split('/');
  return (
    parts.length === skillsParts.length + 3 &&
    skillsParts.every((part, i) => parts[i] === part) &&
    (parts[skillsParts.length] ?? '') !== '' &&
    parts[skillsParts.length + 1] === EVALS_DIR &&
    parts[skillsParts.length + 2] === RESULTS_FILE
  );
}

/** `.claude/skills/<skill>/evals/<file>`: how a message names one of a skill's eval files. */
export function evalsFileLabel(skill: string, file: string): string {
  return path.posix.join(skillRelPath(skill), EVALS_DIR, file);
}

/** `<project>/docs/skill-iterate-runs`, absolute. */
export function runsDirOf(project: string): string {
  return path.resolve(project, ...RUNS_DIR.split('/'));
}

/** The per-skill branch: `skill-iterate/<skill>-<epoch>`. */
export function branchNameFor(skill: string, epoch: number | string): string {
  return `skill-iterate/${skill}-${epoch}`;
}

/** The per-skill worktree folder's name: `worktree_skill-iterate-<skill>-<epoch>`. */
export function worktreeFolderName(skill: string, epoch: number | string): string {
  return `${WORKTREE_PREFIX}${skill}-${epoch}`;
}

/** A folder name under `.claude/skills/` that can be joined into a path safely. */
export function isValidSkillName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) && !name.includes('..');
}
