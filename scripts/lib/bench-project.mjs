/**
 * What the benchmarks share to set up a run: a git command, a skill folder in the DESIGN.md layout, the
 * project committed as the CLI expects it, and the `--flag value` reader of their command lines.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Runs git in `cwd` and returns its trimmed output. */
export function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Writes `.claude/skills/<name>/` with its SKILL.md and the two eval files. */
export async function writeSkill(project, name, skillMd, { evals, scenarios }) {
  const dir = path.join(project, '.claude', 'skills', name);
  await mkdir(path.join(dir, 'evals'), { recursive: true });
  await writeFile(path.join(dir, 'SKILL.md'), skillMd);
  await writeFile(path.join(dir, 'evals', 'evals.json'), `${JSON.stringify(evals, null, 2)}\n`);
  await writeFile(path.join(dir, 'evals', 'test_scenarios.json'), `${JSON.stringify(scenarios, null, 2)}\n`);
}

/** Ignores what a run writes, then makes the project a git repository with one commit on `main`. */
export async function commitProject(project, message) {
  await writeFile(
    path.join(project, '.gitignore'),
    'worktree_*/\n.skill-iterate.lock\n.claude/skills/*/evals/results.tsv\n',
  );
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', message);
}

/**
 * Reads a command line flag by flag: `next()` gives the next flag (undefined at the end), `value()` and
 * `int()` the value after it; a missing or bad value throws `UsageError` naming the flag.
 */
export function flagReader(argv, UsageError) {
  let i = -1;
  const reader = {
    flag: undefined,
    next() {
      i += 1;
      reader.flag = argv[i];
      return reader.flag;
    },
    value() {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${reader.flag} expects a value`);
      return v;
    },
    int() {
      const n = Number(reader.value());
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`${reader.flag} expects a positive integer`);
      return n;
    },
  };
  return reader;
}
