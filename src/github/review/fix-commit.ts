/**
 * `fix: auto` lands through the Git Data API (docs/how-it-works.md § Review fixes): one tree with the
 * files' texts inline → commit → move the branch with `force: false` (three writes, whatever the number
 * of files), so a push someone made meanwhile is never overwritten.
 * When the branch moved (422), the edits are rebuilt once on the new head; if they no longer apply, or
 * the branch moves again, the fix is reported, never forced. A fix counts as landed only when the branch
 * head is its commit afterwards (the answer's, or the ref read back). Fork PRs are refused here as well
 * as by the caller: the App never pushes to a fork.
 */
import { SkillclimbError } from '../../core/errors.js';
import { forbiddenArea } from '../../core/review/edits.js';
import type { AppOctokit } from './app-octokit.js';
import { repoOf } from './app-octokit.js';
import { httpStatusOf } from '../octokit.js';

export interface FileEdit {
  path: string;
  old_string: string;
  new_string: string;
}

export interface CommitFixInput {
  repo: { owner: string; repo: string };
  /** The PR's head branch, e.g. `feature/x` (without `refs/heads/`). */
  branch: string;
  /** The head the edits were made against (the SHA the round reviewed). */
  expectedHead: string;
  edits: FileEdit[];
  message: string;
  /** Why a path may not be written (the allow-list policy), or undefined when it may. */
  pathProblem: (path: string) => string | undefined;
  /** Head repository differs from the base repository. */
  isFork: boolean;
}

export type CommitFixResult =
  | { status: 'committed'; sha: string; parent: string; rebuilt: boolean; files: string[] }
  /** Nothing was written: a path is not allowed, an edit does not apply, or the PR is a fork. */
  | { status: 'refused'; reason: string }
  /** The branch moved under the fix and the edits could not be landed on the new head. */
  | { status: 'head-moved'; reason: string; head: string }
  /** GitHub took the ref update, but the branch head is not the fix commit: nothing may claim it landed. */
  | { status: 'not-landed'; reason: string; head: string };

interface TreeEntry {
  path?: string;
  mode?: string;
  type?: string;
  sha?: string;
}

/** A fix's edit that cannot be applied as asked (the executor's answer): the round refuses it, by name. */
class EditRefused extends SkillclimbError {
  readonly kind = 'model';
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/** Applies the edits in order to the files' texts; every `old_string` must occur exactly once. */
export function applyFileEdits(files: Map<string, string>, edits: readonly FileEdit[]): Map<string, string> {
  const out = new Map(files);
  for (const edit of edits) {
    const text = out.get(edit.path);
    if (text === undefined) throw new EditRefused(`\`${edit.path}\` does not exist at the head`);
    const count = edit.old_string === '' ? 0 : occurrences(text, edit.old_string);
    if (count !== 1) {
      throw new EditRefused(
        `the text to replace occurs ${count} times in \`${edit.path}\` (must be exactly once)`,
      );
    }
    const at = text.indexOf(edit.old_string);
    out.set(edit.path, text.slice(0, at) + edit.new_string + text.slice(at + edit.old_string.length));
  }
  return out;
}

/** The mode and kind of each path at a commit, walking only the folders on the way. */
async function entriesAt(
  octokit: AppOctokit,
  repo: CommitFixInput['repo'],
  rootTree: string,
  paths: readonly string[],
): Promise<Map<string, TreeEntry>> {
  const trees = new Map<string, TreeEntry[]>();
  const treeOf = async (sha: string) => {
    const cached = trees.get(sha);
    if (cached) return cached;
    const { data } = await octokit.rest.git.getTree({ ...repo, tree_sha: sha });
    trees.set(sha, data.tree);
    return data.tree;
  };
  const found = new Map<string, TreeEntry>();
  for (const path of paths) {
    let tree = rootTree;
    const parts = path.split('/');
    for (const [i, part] of parts.entries()) {
      const entry = (await treeOf(tree)).find((candidate) => candidate.path === part);
      if (!entry?.sha) break;
      if (i === parts.length - 1) found.set(path, entry);
      else if (entry.type === 'tree') tree = entry.sha;
      else break;
    }
  }
  return found;
}

async function readBlob(octokit: AppOctokit, repo: CommitFixInput['repo'], sha: string): Promise<string> {
  const { data } = await octokit.rest.git.getBlob({ ...repo, file_sha: sha });
  return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
}

type Entries = Map<string, TreeEntry>;

/** The new texts of the files to commit on `head`, from what the head holds (`entries`). */
type MakeFiles = (
  head: string,
  entries: Entries,
  read: (sha: string) => Promise<string>,
) => Promise<Map<string, string>>;

interface LandInput {
  repo: { owner: string; repo: string };
  branch: string;
  message: string;
  paths: string[];
}

/** Builds the commit on `head` (nothing is visible until the ref moves). */
async function buildCommit(
  octokit: AppOctokit,
  input: LandInput,
  head: string,
  make: MakeFiles,
): Promise<{ sha: string; files: string[]; entries: Entries }> {
  const { repo } = input;
  const { data: parent } = await octokit.rest.git.getCommit({ ...repo, commit_sha: head });
  const entries = await entriesAt(octokit, repo, parent.tree.sha, input.paths);
  for (const [path, entry] of entries) {
    if (entry.type !== 'blob' || (entry.mode !== '100644' && entry.mode !== '100755')) {
      throw new EditRefused(`\`${path}\` is not a regular file`);
    }
  }
  const texts = await make(head, entries, (sha) => readBlob(octokit, repo, sha));
  // The files' texts go inline in the tree (GitHub makes their blobs): one write instead of one per file
  // (issue 18's write budget; docs/how-it-works.md § Review fixes).
  const tree = input.paths.map((path) => ({
    path,
    mode: entries.get(path)?.mode === '100755' ? ('100755' as const) : ('100644' as const),
    type: 'blob' as const,
    content: texts.get(path) ?? '',
  }));
  const { data: newTree } = await octokit.rest.git.createTree({ ...repo, base_tree: parent.tree.sha, tree });
  const { data: commit } = await octokit.rest.git.createCommit({
    ...repo,
    message: input.message,
    tree: newTree.sha,
    parents: [head],
  });
  return { sha: commit.sha, files: input.paths, entries };
}

async function currentHead(octokit: AppOctokit, input: LandInput): Promise<string> {
  const { data } = await octokit.rest.git.getRef({ ...input.repo, ref: `heads/${input.branch}` });
  return data.object.sha;
}

type Moved = { status: 'moved' } | { status: 'refused' } | { status: 'not-landed'; head: string };

/**
 * Moves the branch to `sha` (never forced). It moved only when the branch head IS `sha` afterwards: the
 * answer's `object.sha` says so, or, when the answer does not carry it, the ref read back does.
 */
async function moveBranch(octokit: AppOctokit, input: LandInput, sha: string): Promise<Moved> {
  let answered: string | undefined;
  try {
    const { data } = await octokit.rest.git.updateRef({
      ...input.repo,
      ref: `heads/${input.branch}`,
      sha,
      force: false,
    });
    answered = (data as { object?: { sha?: string } } | undefined)?.object?.sha;
  } catch (error) {
    const status = httpStatusOf(error);
    if (status === 422) return { status: 'refused' };
    // A move GitHub carried out before answering 5xx is done (land() checks the same after a 422: a
    // retry of a move that landed is refused as no fast-forward).
    if (
      status !== undefined &&
      status >= 500 &&
      (await currentHead(octokit, input).catch(() => undefined)) === sha
    ) {
      return { status: 'moved' };
    }
    throw error;
  }
  const head = answered === sha ? sha : await currentHead(octokit, input);
  return head === sha ? { status: 'moved' } : { status: 'not-landed', head };
}

function notLanded(sha: string, head: string): CommitFixResult {
  return {
    status: 'not-landed',
    reason: `the fix commit ${sha.slice(0, 7)} did not land: after the update the branch head is ${head.slice(0, 7)}`,
    head,
  };
}

interface Guarded {
  repo: { owner: string; repo: string };
  isFork: boolean;
  pathProblem: (path: string) => string | undefined;
}

/** Why nothing may be written at all, or undefined. */
function refusal(input: Guarded, paths: readonly string[]): string | undefined {
  if (input.isFork) return 'the pull request comes from a fork; the App never pushes to it';
  if (paths.length === 0) return 'the fix has no files';
  for (const path of paths) {
    const area = forbiddenArea(path.replace(/^\.\//, ''));
    if (area !== undefined) return `\`${path}\` is under ${area}, which the review loop never edits`;
    const problem = input.pathProblem(path);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Lands a commit on `expectedHead`; when the branch moved, `rebuild` decides on the new head once (or
 * refuses with the reason), and the branch is never forced.
 */
async function land(
  octokit: AppOctokit,
  input: LandInput & { expectedHead: string },
  make: MakeFiles,
  rebuild: (first: Entries) => MakeFiles,
): Promise<CommitFixResult> {
  try {
    const first = await buildCommit(octokit, input, input.expectedHead, make);
    const moved = await moveBranch(octokit, input, first.sha);
    if (moved.status === 'not-landed') return notLanded(first.sha, moved.head);
    const landed: CommitFixResult = {
      status: 'committed',
      sha: first.sha,
      parent: input.expectedHead,
      rebuilt: false,
      files: first.files,
    };
    if (moved.status === 'moved') return landed;
    // Refused as no fast-forward: a retry of a move that had landed, or the branch moved under us.
    const head = await currentHead(octokit, input);
    if (head === first.sha) return landed;
    if (head === input.expectedHead) {
      return {
        status: 'head-moved',
        reason: 'GitHub refused to move the branch (422) though it did not move',
        head,
      };
    }
    let second: { sha: string; files: string[] };
    try {
      second = await buildCommit(octokit, input, head, rebuild(first.entries));
    } catch (error) {
      if (error instanceof EditRefused) {
        return {
          status: 'head-moved',
          reason: `the branch moved to ${head.slice(0, 7)} and ${error.message}`,
          head,
        };
      }
      throw error;
    }
    const again = await moveBranch(octokit, input, second.sha);
    if (again.status === 'not-landed') return notLanded(second.sha, again.head);
    if (again.status === 'moved') {
      return { status: 'committed', sha: second.sha, parent: head, rebuilt: true, files: second.files };
    }
    return {
      status: 'head-moved',
      reason: `the branch moved again after the fix was rebuilt on ${head.slice(0, 7)}`,
      head: await currentHead(octokit, input),
    };
  } catch (error) {
    if (error instanceof EditRefused) return { status: 'refused', reason: error.message };
    throw error;
  }
}

/** Commits `{path, old_string, new_string}` edits, applied to the files as the head holds them. */
export async function commitFix(octokit: AppOctokit, given: CommitFixInput): Promise<CommitFixResult> {
  const input = { ...given, repo: repoOf(given.repo) };
  const paths = [...new Set(input.edits.map((edit) => edit.path))];
  const refused = refusal(input, paths);
  if (refused) return { status: 'refused', reason: refused };
  const apply: MakeFiles = async (head, entries, read) => {
    const texts = new Map<string, string>();
    for (const path of paths) {
      const entry = entries.get(path);
      if (!entry?.sha) throw new EditRefused(`\`${path}\` does not exist at ${head.slice(0, 7)}`);
      texts.set(path, await read(entry.sha));
    }
    return applyFileEdits(texts, input.edits);
  };
  return land(octokit, { ...input, paths }, apply, () => apply);
}

export interface CommitFilesInput extends Guarded {
  branch: string;
  expectedHead: string;
  /** Whole new texts (what the review engine's target port commits). */
  files: Array<{ path: string; text: string }>;
  message: string;
}

/**
 * Commits whole file texts made from `expectedHead`. When the branch moved, they are committed on the new
 * head only if none of those files changed in between (their blobs are the same); otherwise the other
 * push's change to them would be overwritten, so the fix is reported instead.
 */
export async function commitFileTexts(
  octokit: AppOctokit,
  given: CommitFilesInput,
): Promise<CommitFixResult> {
  const input = { ...given, repo: repoOf(given.repo) };
  const paths = [...new Set(input.files.map((file) => file.path))];
  const refused = refusal(input, paths);
  if (refused) return { status: 'refused', reason: refused };
  const texts = new Map(input.files.map((file) => [file.path, file.text]));
  const whole: MakeFiles = async () => texts;
  const rebuild =
    (first: Entries): MakeFiles =>
    async (head, entries) => {
      const changed = paths.filter((path) => entries.get(path)?.sha !== first.get(path)?.sha);
      if (changed.length > 0) {
        throw new EditRefused(`\`${changed.join('`, `')}\` changed there too (${head.slice(0, 7)})`);
      }
      return texts;
    };
  return land(octokit, { ...input, paths }, whole, rebuild);
}
