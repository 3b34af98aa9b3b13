/**
 * Which paths git ignores, asked of git (`git check-ignore`), never guessed from the .gitignore files: eval
 * files that git ignores cannot be committed, and a fresh clone (the Action's checkout) never has them
 * (docs/how-it-works.md § The queue). Tracked files are never reported: git does not ignore them.
 */
import { execFile } from 'node:child_process';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IgnoredPath } from '../ports/git.js';

/**
 * The paths (relative to `dir`, `/`-separated) git would ignore there, each with the rule that ignores it;
 * none when `dir` is not in a repository. A path under a negated rule (`!x`) is not ignored.
 */
export async function ignoredPaths(dir: string, paths: readonly string[]): Promise<IgnoredPath[]> {
  if (paths.length === 0) return [];
  const stdout = await new Promise<string>((resolve) => {
    const child = execFile(
      'git',
      ['-C', dir, 'check-ignore', '-v', '-z', '--stdin'],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      // Exit 1: none of the paths is ignored. Anything else (not a repository) is no answer either.
      (error, out) => resolve(error ? (error.code === 1 ? '' : '') : out),
    );
    child.stdin?.end(paths.map((p) => `${p}\0`).join(''));
  });
  return parseCheckIgnore(stdout);
}

/** `git check-ignore -v -z` output: source NUL line NUL pattern NUL path NUL, four fields a path. */
export function parseCheckIgnore(stdout: string): IgnoredPath[] {
  const fields = stdout.split('\0');
  const found: IgnoredPath[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [source, line, pattern, file] = fields.slice(i, i + 4) as [string, string, string, string];
    if (pattern.startsWith('!')) continue; // a negation matched: the path is not ignored
    found.push({ path: file, source, line: Number(line), pattern });
  }
  return found;
}

/**
 * Appends each `{ file, line }` to its `.gitignore` (relative to the repository root, created when
 * missing), each line only once, after a newline: later lines win, so a `!…` line un-ignores what an
 * earlier rule ignored. Resolves the files written, relative to the repository root.
 */
export async function appendGitignoreLines(
  repository: string,
  lines: ReadonlyArray<{ file: string; line: string }>,
): Promise<string[]> {
  const files = [...new Set(lines.map((l) => l.file))];
  for (const rel of files) {
    await appendLines(
      path.join(repository, ...rel.split('/')),
      lines.filter((l) => l.file === rel).map((l) => l.line),
    );
  }
  return files;
}

async function appendLines(file: string, lines: readonly string[]): Promise<void> {
  const existing = await readFile(file, 'utf8').catch(() => '');
  const have = new Set(existing.split(/\r?\n/));
  const missing = lines.filter((l) => !have.has(l));
  if (missing.length > 0) {
    const sep = existing === '' || existing.endsWith('\n') ? '' : '\n';
    await appendFile(file, `${sep}${missing.join('\n')}\n`);
  }
}
