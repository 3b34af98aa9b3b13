/**
 * A repository's skill files are untrusted input. A SKILL.md that links to `.git/config` (where
 * actions/checkout keeps the token) would be sent to the model, and one that links to any file outside
 * would be overwritten by the loop; a linked results.tsv or eval file the same. So a skill whose files are
 * links is not iterated at all: this finds the first such file, before anything is read or written.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { RESULTS_FILE, evalsDirOf, skillFileOf } from '../core/skill-layout.js';

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

/** The first link inside `dir` (itself not a link), as a path relative to `root`; sub-folders too. */
async function linkInside(root: string, dir: string): Promise<string | undefined> {
  for (const entry of (await entriesOf(dir)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) return full;
    if (entry.isDirectory()) {
      const found = await linkInside(root, full);
      if (found) return found;
    }
  }
  return undefined;
}

function isInside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Where a folder of `skillRel` (or SKILL.md itself) leads outside `root`: the first linked component. */
async function escapingComponent(root: string, skillRel: string): Promise<string> {
  const parts = skillRel.split('/').filter(Boolean);
  let current = root;
  for (const part of parts) {
    current = path.join(current, part);
    if (await isSymlink(current)) return current;
  }
  return skillFileOf(path.join(root, skillRel));
}

async function resolvesOutside(realRoot: string, file: string): Promise<boolean> {
  try {
    return !isInside(realRoot, await realpath(file));
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

/**
 * The first of the skill's files under `root` that is a symbolic link, as a `/`-separated path relative
 * to `root`, or undefined when there is none: SKILL.md, the evals folder and everything in it
 * (results.tsv included). A skill folder that is itself a link may stay inside `root` (a shared skill
 * elsewhere in the repository); SKILL.md or the evals folder resolving outside `root` counts as a link.
 */
export async function findSymlinkedSkillFile(root: string, skillRel: string): Promise<string | undefined> {
  const skillDir = path.join(root, skillRel);
  const evalsDir = evalsDirOf(skillDir);
  const relative = (file: string): string => path.relative(root, file).split(path.sep).join('/');
  for (const file of [skillFileOf(skillDir), evalsDir, path.join(evalsDir, RESULTS_FILE)]) {
    if (await isSymlink(file)) return relative(file);
  }
  const inside = await linkInside(root, evalsDir);
  if (inside) return relative(inside);
  const realRoot = await realpath(root);
  if (
    (await resolvesOutside(realRoot, skillFileOf(skillDir))) ||
    (await resolvesOutside(realRoot, evalsDir))
  ) {
    return relative(await escapingComponent(root, skillRel));
  }
  return undefined;
}

/** The skill's status when findSymlinkedSkillFile found `rel`. */
export function symlinkSkipStatus(rel: string): `skipped (${string})` {
  return `skipped (symlink: ${rel})`;
}

export function symlinkWarning(skill: string, rel: string, where: string): string {
  return (
    `${skill}: ${rel} in ${where} is a symbolic link or leads outside it; the skill is skipped ` +
    `(skill files are never read or written through a link): replace the link by the file itself`
  );
}
