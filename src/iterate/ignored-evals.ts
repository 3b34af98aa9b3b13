/**
 * Eval files git ignores (docs/how-it-works.md § The queue): a collection whose `.gitignore` has
 * `evals/` (obra/superpowers) gets eval files that `git add` refuses and a fresh clone (the Action's
 * checkout) never has. `evals init`, the plan and the Action's evals-init mode say so, with the exact
 * `.gitignore` line that un-ignores them, and never tell anyone to commit what git will refuse.
 */
import path from 'node:path';
import { EVALS_DIR, EVALS_FILE, SCENARIOS_FILE, type SkillLocation } from '../core/iterate/skill-layout.js';
import type { IgnoredPath } from '../ports/git.js';

export type IgnoredPathsPort = (dir: string, paths: readonly string[]) => Promise<IgnoredPath[]>;

export interface IgnoredEvals {
  /** The skills whose eval files git ignores, by name. */
  skills: string[];
  /** The rules that ignore them, as `git check-ignore -v` names them: `.gitignore:3: evals/`. */
  rules: string[];
  /** The lines that un-ignore them, each for the file it goes in (relative to the repository root). */
  lines: Array<{ file: string; line: string }>;
}

function posix(p: string): string {
  return p.split(path.sep).join('/');
}

/** `skills/x` → `skills/*`: the line then covers the skill's siblings, now and later. */
function siblingsGlob(dir: string): string {
  const slash = dir.lastIndexOf('/');
  return slash < 0 ? '*' : `${dir.slice(0, slash)}/*`;
}

/** Whether a rule names the evals folder itself (`evals/`, `evals`, `**\/evals/`) rather than files in it. */
function ignoresFolder(pattern: string): boolean {
  const bare = pattern.replace(/\/+$/, '');
  return bare === EVALS_DIR || bare.endsWith(`/${EVALS_DIR}`);
}

/**
 * The eval files of `skills` that git ignores in the project's repository, or undefined when none is.
 * `repository` is the root of the git work tree holding `project`.
 */
export async function findIgnoredEvals(
  ignoredPaths: IgnoredPathsPort,
  repository: string,
  project: string,
  skills: readonly SkillLocation[],
): Promise<IgnoredEvals | undefined> {
  const prefix = posix(path.relative(repository, project));
  const inRepo = (rel: string) => (prefix === '' ? rel : `${prefix}/${rel}`);
  const asked = new Map<string, SkillLocation>();
  for (const skill of skills) {
    for (const file of [EVALS_FILE, SCENARIOS_FILE]) {
      asked.set(inRepo(`${skill.dir}/${EVALS_DIR}/${file}`), skill);
    }
  }
  const ignored = await ignoredPaths(repository, [...asked.keys()]);
  if (ignored.length === 0) return undefined;
  const names: string[] = [];
  const rules: string[] = [];
  const lines: IgnoredEvals['lines'] = [];
  const addLine = (file: string, line: string) => {
    if (!lines.some((l) => l.file === file && l.line === line)) lines.push({ file, line });
  };
  for (const hit of ignored) {
    const skill = asked.get(hit.path);
    if (!skill) continue;
    if (!names.includes(skill.name)) names.push(skill.name);
    const rule = `${hit.source}:${hit.line}: ${hit.pattern}`;
    if (!rules.includes(rule)) rules.push(rule);
    const source = posix(hit.source);
    // A rule in a .gitignore below the root is un-ignored in that same file (a deeper file wins over the
    // root's); every other rule (the root .gitignore, .git/info/exclude, a global file) from the root's.
    const nested =
      path.posix.basename(source) === '.gitignore' && source !== '.gitignore' && !path.isAbsolute(hit.source)
        ? path.posix.dirname(source)
        : undefined;
    const evalsDir = inRepo(`${skill.dir}/${EVALS_DIR}`);
    if (nested !== undefined && (evalsDir === nested || evalsDir.startsWith(`${nested}/`))) {
      const rel = path.posix.relative(nested, evalsDir);
      addLine(source, ignoresFolder(hit.pattern) ? `!/${rel}/` : `!/${rel}/${path.posix.basename(hit.path)}`);
    } else {
      const glob = inRepo(`${siblingsGlob(skill.dir)}/${EVALS_DIR}`);
      addLine(
        '.gitignore',
        ignoresFolder(hit.pattern) ? `!${glob}/` : `!${glob}/${path.posix.basename(hit.path)}`,
      );
    }
  }
  return { skills: names.sort(), rules, lines };
}

/** The lines as the hint shows them: `` `!skills/*\/evals/` in .gitignore``. */
export function unignoreLines(ignored: IgnoredEvals): string {
  const byFile = new Map<string, string[]>();
  for (const { file, line } of ignored.lines) byFile.set(file, [...(byFile.get(file) ?? []), line]);
  return [...byFile]
    .map(([file, lines]) => `${lines.map((l) => `\`${l}\``).join(', ')} to ${file}`)
    .join(', and ');
}

/** One sentence: which skills, which rule, the line to add (and the flag that adds it, when there is one). */
export function ignoredEvalsHint(ignored: IgnoredEvals, flag?: string): string {
  const count = ignored.skills.length;
  const shown = ignored.skills.slice(0, 5).join(', ') + (count > 5 ? `, … (${count} in all)` : '');
  return (
    `git ignores the eval files of ${count === 1 ? '1 skill' : `${count} skills`} (${shown}): ` +
    `${ignored.rules.join('; ')}. \`git add\` refuses them and a fresh clone (the Action's checkout) ` +
    `does not have them; add ${unignoreLines(ignored)}` +
    (flag ? ` (or pass ${flag} to add it)` : '') +
    ', then commit the eval files'
  );
}
