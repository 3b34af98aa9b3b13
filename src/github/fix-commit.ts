/**
 * `fix: auto` lands through the Git Data API (docs/how-it-works.md § Review fixes): blobs → tree →
 * commit → move the branch with `force: false`, so a push someone made meanwhile is never overwritten.
 * When the branch moved (422), the edits are rebuilt once on the new head; if they no longer apply, or
 * the branch moves again, the fix is reported, never forced. Fork PRs are refused here as well as by the
 * caller: the App never pushes to a fork.
 */
import { isWorkflowPath } from '../core/fix-paths.js';
import type { AppOctokit } from './app-octokit.js';
import { repoOf } from './app-octokit.js';
import { httpStatusOf } from './octokit.js';

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
  | { status: 'head-moved'; reason: string; head: string };

interface TreeEntry {
  path?: string;
  mode?: string;
  type?: string;
  sha?: string;
}

class EditRefused extends Error {}

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

/** Builds the commit on `head` (nothing is visible until the ref moves). */
async function buildCommit(
  octokit: AppOctokit,
  input: CommitFixInput,
  head: string,
): Promise<{ sha: string; files: string[] }> {
  const { repo } = input;
  const { data: parent } = await octokit.rest.git.getCommit({ ...repo, commit_sha: head });
  const paths = [...new Set(input.edits.map((edit) => edit.path))];
  const entries = await entriesAt(octokit, repo, parent.tree.sha, paths);
  const texts = new Map<string, string>();
  for (const path of paths) {
    const entry = entries.get(path);
    if (!entry?.sha) throw new EditRefused(`\`${path}\` does not exist at ${head.slice(0, 7)}`);
    if (entry.type !== 'blob' || (entry.mode !== '100644' && entry.mode !== '100755')) {
      throw new EditRefused(`\`${path}\` is not a regular file`);
    }
    texts.set(path, await readBlob(octokit, repo, entry.sha));
  }
  const edited = applyFileEdits(texts, input.edits);
  const tree = [];
  for (const path of paths) {
    const { data: blob } = await octokit.rest.git.createBlob({
      ...repo,
      content: Buffer.from(edited.get(path) ?? '', 'utf8').toString('base64'),
      encoding: 'base64',
    });
    const mode = entries.get(path)?.mode === '100755' ? ('100755' as const) : ('100644' as const);
    tree.push({ path, mode, type: 'blob' as const, sha: blob.sha });
  }
  const { data: newTree } = await octokit.rest.git.createTree({ ...repo, base_tree: parent.tree.sha, tree });
  const { data: commit } = await octokit.rest.git.createCommit({
    ...repo,
    message: input.message,
    tree: newTree.sha,
    parents: [head],
  });
  return { sha: commit.sha, files: paths };
}

async function currentHead(octokit: AppOctokit, input: CommitFixInput): Promise<string> {
  const { data } = await octokit.rest.git.getRef({ ...input.repo, ref: `heads/${input.branch}` });
  return data.object.sha;
}

async function moveBranch(octokit: AppOctokit, input: CommitFixInput, sha: string): Promise<boolean> {
  try {
    await octokit.rest.git.updateRef({ ...input.repo, ref: `heads/${input.branch}`, sha, force: false });
    return true;
  } catch (error) {
    if (httpStatusOf(error) === 422) return false;
    throw error;
  }
}

export async function commitFix(octokit: AppOctokit, given: CommitFixInput): Promise<CommitFixResult> {
  const input = { ...given, repo: repoOf(given.repo) };
  if (input.isFork)
    return { status: 'refused', reason: 'the pull request comes from a fork; the App never pushes to it' };
  if (input.edits.length === 0) return { status: 'refused', reason: 'the fix has no edits' };
  for (const edit of input.edits) {
    if (isWorkflowPath(edit.path)) {
      return {
        status: 'refused',
        reason: `\`${edit.path}\` is a workflow file; fixes never touch .github/workflows/`,
      };
    }
    const problem = input.pathProblem(edit.path);
    if (problem) return { status: 'refused', reason: problem };
  }
  try {
    const first = await buildCommit(octokit, input, input.expectedHead);
    if (await moveBranch(octokit, input, first.sha)) {
      return {
        status: 'committed',
        sha: first.sha,
        parent: input.expectedHead,
        rebuilt: false,
        files: first.files,
      };
    }
    const head = await currentHead(octokit, input);
    if (head === input.expectedHead) {
      return {
        status: 'head-moved',
        reason: 'GitHub refused to move the branch (422) though it did not move',
        head,
      };
    }
    let second: { sha: string; files: string[] };
    try {
      second = await buildCommit(octokit, input, head);
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
    if (await moveBranch(octokit, input, second.sha)) {
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
