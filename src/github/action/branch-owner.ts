/**
 * Whose commit is the tip of `skill-iterate/<skill>`? The Action force-pushes that branch every night, so
 * it may only replace a tip it made itself: anything else is someone's work, which a push must never lose.
 */
import type { SimpleGit } from 'simple-git';
import { BOT_IDENTITY, fetchBranch } from './git.js';

export interface BranchTip {
  remote: string;
  branch: string;
  skill: string;
  /** The tip `ls-remote` listed. */
  sha: string;
}

/** The email of the identity this checkout commits with (`git var`, so config and GIT_COMMITTER_* count). */
export async function committerEmail(git: SimpleGit): Promise<string | undefined> {
  const ident = await git.raw(['var', 'GIT_COMMITTER_IDENT']).catch(() => '');
  return /<([^>]*)>/.exec(ident)?.[1]?.toLowerCase();
}

/**
 * True when the tip is a squash the Action made: one parent, the canonical message
 * `skill-iterate: <skill>: …`, authored and committed by github-actions[bot] or the identity this checkout
 * commits with. Only the tip is fetched (depth 1 in a shallow checkout).
 */
export async function isSkillclimbCommit(git: SimpleGit, tip: BranchTip): Promise<boolean> {
  const fetched = await fetchBranch(git, tip.remote, tip.branch);
  // The branch moved since it was listed: someone is pushing to it right now.
  if (fetched !== tip.sha) return false;
  // The raw object, not `git log`: in a shallow checkout the fetched tip is a graft with no parents.
  const raw = await git.raw(['cat-file', 'commit', tip.sha]);
  const split = raw.indexOf('\n\n');
  const header = (split < 0 ? raw : raw.slice(0, split)).split('\n');
  const subject = split < 0 ? '' : (raw.slice(split + 2).split('\n', 1)[0] ?? '');
  const emailOf = (field: string) =>
    /<([^>]*)>/.exec(header.find((line) => line.startsWith(`${field} `)) ?? '')?.[1]?.toLowerCase() ?? '';
  const parents = header.filter((line) => line.startsWith('parent ')).length;
  const ours = new Set([BOT_IDENTITY.email.toLowerCase()]);
  const own = await committerEmail(git);
  if (own) ours.add(own);
  return (
    parents === 1 &&
    subject.startsWith(`skill-iterate: ${tip.skill}: `) &&
    ours.has(emailOf('author')) &&
    ours.has(emailOf('committer'))
  );
}
