/**
 * The reviewer skill of a local checkout (docs/how-it-works.md § The reviewer learns): read at the BASE of
 * the change under review — the branch it is measured from, the default branch unless `--base` says
 * otherwise — with git (`rev-parse`, `ls-tree`, `cat-file`), never from the working tree or the branch
 * being reviewed, so a branch that edits the skill is not reviewed by its own edit.
 */
import { DEFAULT_REVIEWER_SKILL_DIR } from '../../core/reviewer-skill.js';
import {
  MAX_REVIEWER_SKILL_BYTES,
  instructionsFrom,
  reviewerSkillFile,
  type ReviewerInstructions,
  type ReviewerSkillRead,
} from '../../core/review/reviewer-instructions.js';
import { messageOf } from '../../core/errors.js';
import { runGit } from '../../git/client.js';

const CONFIG_FILE = '.github/review-loop.yml';

interface TreeEntry {
  mode: string;
  type: string;
  sha: string;
  size: number;
}

async function entryAt(repoRoot: string, commit: string, file: string): Promise<TreeEntry | undefined> {
  const out = await runGit(repoRoot, 'ls-tree', [
    '--literal-pathspecs',
    'ls-tree',
    '-l',
    '-z',
    commit,
    '--',
    file,
  ]);
  const m = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t/.exec(out.split('\0')[0] ?? '');
  if (!m) return undefined;
  return { mode: m[1]!, type: m[2]!, sha: m[3]!, size: m[4] === '-' ? 0 : Number(m[4]) };
}

async function readAt(repoRoot: string, commit: string, file: string): Promise<ReviewerSkillRead> {
  const entry = await entryAt(repoRoot, commit, file);
  if (entry === undefined) return { kind: 'missing' };
  if (entry.mode === '120000') return { kind: 'not-a-file', what: 'a symbolic link' };
  if (entry.type !== 'blob') return { kind: 'not-a-file', what: 'a folder' };
  const text = await runGit(repoRoot, 'cat-file', ['cat-file', 'blob', entry.sha]);
  if (text.slice(0, 8000).includes('\0')) return { kind: 'not-a-file', what: 'a binary file' };
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_REVIEWER_SKILL_BYTES) return { kind: 'file', text, bytes, truncated: false };
  const cut = Buffer.from(text).subarray(0, MAX_REVIEWER_SKILL_BYTES).toString('utf8');
  return { kind: 'file', text: cut, bytes, truncated: true };
}

/**
 * The folder `.github/review-loop.yml` names in its top-level `reviewer_skill:` line at `commit` (the one
 * key the CLI takes from the App's file, read as a plain `key: value` line), else the default folder.
 */
async function skillFolderAt(repoRoot: string, commit: string): Promise<string> {
  const config = await readAt(repoRoot, commit, CONFIG_FILE).catch(() => undefined);
  if (config?.kind !== 'file') return DEFAULT_REVIEWER_SKILL_DIR;
  const line = /^reviewer_skill:[ \t]*(.*?)[ \t]*(?:#.*)?$/m.exec(config.text)?.[1];
  const value = line?.replace(/^(["'])(.*)\1$/, '$2').trim();
  return value ? value : DEFAULT_REVIEWER_SKILL_DIR;
}

/** The reviewer's instructions for a review measured from `baseRef`: its skill there, else the built-in ones. */
export async function reviewerInstructionsAt(
  repoRoot: string,
  baseRef: string,
): Promise<ReviewerInstructions> {
  let commit: string;
  try {
    commit = (await runGit(repoRoot, 'rev-parse', ['rev-parse', '--verify', `${baseRef}^{commit}`])).trim();
  } catch (error) {
    return { source: 'built-in', note: `the base ${baseRef} could not be read (${messageOf(error)})` };
  }
  const dir = await skillFolderAt(repoRoot, commit);
  const file = reviewerSkillFile(dir);
  if (file === undefined) {
    return {
      source: 'built-in',
      note: `\`reviewer_skill: ${dir}\` in ${CONFIG_FILE} is not a folder inside the repository`,
    };
  }
  try {
    return instructionsFrom(await readAt(repoRoot, commit, file), { path: file, commit, ref: baseRef });
  } catch (error) {
    return { source: 'built-in', note: `${file} on ${baseRef} could not be read (${messageOf(error)})` };
  }
}
