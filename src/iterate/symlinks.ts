/**
 * The one rule on symbolic links for the whole project (docs/how-it-works.md § Untrusted text and secrets),
 * decided here and nowhere else, so `score`, `iterate` (its dry run and its real run) and `evals init`
 * decide alike:
 * - a linked SKILL.md, evals folder or file in it (results.tsv included) is always refused: a SKILL.md that
 *   links to `.git/config` (where actions/checkout keeps the token) would be sent to a model, and any
 *   linked file the loop writes would be overwritten outside the skill;
 * - a linked folder on the way to the skill (a skills root `.claude/skills -> ../skills`, or a skill folder)
 *   that resolves inside the repository is followed: the skill's folder is its real path, so commits go
 *   there;
 * - a linked folder that resolves outside the repository is refused.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { EVALS_DIR, RESULTS_FILE, SKILL_FILE } from '../core/iterate/skill-layout.js';

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function isSymlink(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isSymbolicLink();
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

/** The first link inside `dir` (itself not a link), sub-folders too, in name order. */
async function linkInside(dir: string): Promise<string | undefined> {
  for (const entry of (await entriesOf(dir)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) return full;
    if (entry.isDirectory()) {
      const found = await linkInside(full);
      if (found) return found;
    }
  }
  return undefined;
}

export function isInside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

const posix = (p: string): string => p.split(path.sep).join('/');

/**
 * The first of a skill folder's own files that is a symbolic link (SKILL.md, the evals folder, anything
 * in it), as an absolute path; undefined when there is none. The folder itself is the caller's business.
 */
export async function linkedSkillFile(skillDir: string): Promise<string | undefined> {
  const evalsDir = path.join(skillDir, EVALS_DIR);
  for (const file of [path.join(skillDir, SKILL_FILE), evalsDir, path.join(evalsDir, RESULTS_FILE)]) {
    if (await isSymlink(file)) return file;
  }
  return linkInside(evalsDir);
}

/**
 * The first symbolic link on the way from `skillDir` to `rel` (a `/`-separated path inside it, the file
 * itself included), as an absolute path; undefined when there is none. An input file an eval names is
 * read from the skill folder, so the same rule holds for it as for the eval files.
 */
export async function linkOnTheWay(skillDir: string, rel: string): Promise<string | undefined> {
  let at = skillDir;
  for (const part of rel.split('/')) {
    at = path.join(at, part);
    if (await isSymlink(at)) return at;
  }
  return undefined;
}

export type FolderDecision =
  /** `dir`: the skill's real folder, relative to the project, `/`-separated (commits go here). */
  | { ok: true; dir: string }
  /** `link`: the linked path (relative to the project) the refusal names. */
  | { ok: false; reason: string; link: string };

export interface FolderRoots {
  /** The project folder. */
  project: string;
  /** The repository root (a link may lead anywhere inside it). */
  repository: string;
  /** false: any linked folder on the way is refused (a worktree's committed paths must be real). */
  followLinks?: boolean;
}

/**
 * The decision for the skill folder at `found` (relative to the project, `/`-separated, as the skills
 * setting matched it): followed to its real path, or refused with the reason.
 */
export async function decideSkillFolder(roots: FolderRoots, found: string): Promise<FolderDecision> {
  const realProject = await realpath(roots.project);
  const realRepository = await realpath(roots.repository);
  let current = realProject;
  let shown = '';
  for (const part of found.split('/').filter(Boolean)) {
    const next = path.join(current, part);
    shown = shown ? `${shown}/${part}` : part;
    if (await isSymlink(next)) {
      let target: string;
      try {
        target = await realpath(next);
      } catch (err) {
        if (!isMissing(err)) throw err;
        return { ok: false, reason: `symlink: ${shown} is a dangling link`, link: shown };
      }
      if (roots.followLinks === false) {
        return { ok: false, reason: `symlink: ${shown} is a link in the committed tree`, link: shown };
      }
      if (!isInside(realRepository, target)) {
        return {
          ok: false,
          reason: `symlink: ${shown} leads outside the repository (to ${target})`,
          link: shown,
        };
      }
      current = target;
    } else {
      current = next;
    }
  }
  const dir = posix(path.relative(realProject, current)) || '.';
  const linked = await linkedSkillFile(current);
  if (linked !== undefined) {
    const label = posix(path.join(dir, path.relative(current, linked)));
    return { ok: false, reason: `symlink: ${label} is a symbolic link`, link: label };
  }
  return { ok: true, dir };
}

/** The status of a skill the real run finds linked in its worktree's committed files. */
export function symlinkSkipStatus(link: string): `skipped (${string})` {
  return `skipped (symlink: ${link})`;
}

export function symlinkWarning(skill: string, link: string, where: string): string {
  return (
    `${skill}: ${link} in ${where} is a symbolic link or leads outside it; the skill is skipped ` +
    `(skill files are never read or written through a link): replace the link by the file itself`
  );
}
