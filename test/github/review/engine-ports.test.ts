/** The engine-facing ports the App builds on its pull session (store, target, checkpoint). */
import { describe, expect, it } from 'vitest';
import type { PullSession } from '../../../src/github/review/pull-session-port.js';
import { CommentCheckpoint } from '../../../src/github/review/comment-checkpoint.js';
import { GitHubReviewStore, ReviewStateUnreadableError } from '../../../src/github/review/review-store.js';
import { GitHubReviewTarget, boundDiff } from '../../../src/github/review/review-target.js';
import {
  MEMORY_LIMIT,
  RECORDS_BUDGET,
  boundRecords,
  trimMemory,
} from '../../../src/core/review/sticky-records.js';
import { memoryForRun } from '../../../src/core/review/log.js';
import type { AcquittalReceipt } from '../../../src/core/review/log.js';
import type { ReviewState } from '../../../src/core/review/state.js';
import type { CommitFixResult } from '../../../src/github/review/fix-commit.js';
import { BASE, HEAD, OWNER, PR, REPO } from '../../helpers/app-fixtures.js';

function fakeSession(commit: CommitFixResult, heads: string[] = []) {
  let saved: unknown;
  const commits: Array<{ files: unknown; expectedHead: string }> = [];
  const session = {
    pr: {
      pr: { owner: OWNER, repo: REPO, number: PR },
      title: 'Title',
      body: 'Body',
      headSha: HEAD,
      baseSha: BASE,
    },
    currentHead: async () => heads.shift() ?? HEAD,
    loadReviewState: async () => saved,
    saveReviewState: async (review: unknown) => void (saved = review),
    compare: async (base: string, head: string) => ({
      mergeBase: `mb-${base.slice(0, 1)}`,
      files: [`${head.slice(0, 1)}.ts`],
    }),
    readCompareDiff: async () => 'line one\nline two\nline three\n',
    commitFiles: async (files: unknown, _message: string, expectedHead: string) => {
      commits.push({ files, expectedHead });
      return commit;
    },
  } as unknown as PullSession;
  return { session, commits, saved: () => saved };
}

describe('GitHubReviewStore', () => {
  it('keeps state, memory (bounded, oldest cut) and receipts in the sticky record', async () => {
    const { session, saved } = fakeSession({ status: 'refused', reason: 'x' });
    const store = new GitHubReviewStore(session);
    expect(await store.readState()).toBeUndefined();
    await store.writeState({ run_id: 'run_20260301_0000beef', round: 1 } as unknown as ReviewState);
    await store.appendMemory('a'.repeat(MEMORY_LIMIT));
    await store.appendMemory('NEWEST');
    await store.appendReceipt({ run_id: 'run_20260301_0000beef', round: 1 } as unknown as AcquittalReceipt);
    expect(await store.readState()).toEqual({ run_id: 'run_20260301_0000beef', round: 1 });
    const memory = await store.readMemory();
    expect(memory).toHaveLength(MEMORY_LIMIT);
    expect(memory.endsWith('NEWEST')).toBe(true);
    expect(await store.readReceipts()).toHaveLength(1);
    await store.deleteState();
    expect(await store.readState()).toBeUndefined();
    expect(saved()).toMatchObject({ receipts: [{ round: 1 }] });
    expect(store.location).toContain(`#${PR}`);
  });

  it('refuses a state the engine cannot read with a sentence naming where it is', async () => {
    const { session } = fakeSession({ status: 'refused', reason: 'x' });
    await session.saveReviewState({ state: { round: 'one', history: 7 } });
    await expect(new GitHubReviewStore(session).readState()).resolves.toMatchObject({ round: 0 });
    await session.saveReviewState({ state: 'not an object' });
    await expect(new GitHubReviewStore(session).readState()).rejects.toThrow(ReviewStateUnreadableError);
    await expect(new GitHubReviewStore(session).readState()).rejects.toThrow(
      /status comment of pull request #7/,
    );
  });
});

describe('boundRecords (docs/how-it-works.md § The App: the state block is bounded)', () => {
  const weakness = (round: number, rank: number) => ({
    rank,
    title: `w${round}.${rank}`,
    severity: 'major',
    detail: 'd'.repeat(2000),
    minimum_fix: 'f'.repeat(800),
    effort: 'small',
    file: null,
    line: null,
    source: 'reviewer',
    resolved_by_debate: false,
  });
  const round = (n: number) => ({
    round: n,
    head: 'h',
    score: 4,
    verdict: 'not ready',
    weaknesses: [1, 2, 3, 4].map((r) => weakness(n, r)),
  });

  it('always drops the waiting round’s raw answers, and leaves a small state otherwise as it is', () => {
    const state = {
      round: 1,
      history: [round(1)],
      pending: { round: 2, raw: 'RAW', verifier_raw: 'V', weaknesses: [] },
    };
    const bounded = boundRecords({ state, memory: 'm' });
    expect(bounded).toEqual({
      state: { ...state, pending: { round: 2, raw: '', verifier_raw: null, weaknesses: [] } },
      memory: 'm',
    });
  });

  it('cuts older rounds first and keeps the waiting round’s weaknesses, the last scored titles and the memory heading', () => {
    const memory = `# Reviewer Memory — run_x\n\n${Array.from({ length: 40 }, (_, i) => `## Round ${i}\n${'m'.repeat(480)}\n`).join('')}`;
    const state = {
      round: 8,
      history: Array.from({ length: 8 }, (_, i) => round(i + 1)),
      pending: {
        round: 9,
        raw: 'RAW',
        verifier_raw: null,
        summary: 's',
        memory_update: 'u',
        debate: null,
        weaknesses: [1, 2, 3, 4].map((r) => weakness(9, r)),
      },
    };
    const bounded = boundRecords({ state, memory });
    expect(JSON.stringify(bounded).length).toBeLessThanOrEqual(RECORDS_BUDGET);
    const kept = bounded.state as typeof state;
    expect(kept.history.map((r) => r.weaknesses.length)).toEqual([0, 0, 0, 0, 0, 0, 0, 4]);
    expect(kept.history.at(-1)!.weaknesses.map((w) => w.title)).toEqual(['w8.1', 'w8.2', 'w8.3', 'w8.4']);
    expect(
      kept.pending.weaknesses.map((w) => [w.title, w.detail.slice(0, 3), w.minimum_fix.slice(0, 3)]),
    ).toEqual([1, 2, 3, 4].map((r) => [`w9.${r}`, 'ddd', 'fff']));
    expect(memoryForRun(bounded.memory!, 'run_x')).toContain('## Round 39');
    expect(bounded.memory).not.toContain('## Round 0\n');
    // the input is not changed
    expect(state.pending.raw).toBe('RAW');
  });

  it('trimMemory keeps the run heading when the cut goes through it', () => {
    const memory = `# Reviewer Memory — run_x\n${'a\n'.repeat(100)}NEWEST`;
    const trimmed = trimMemory(memory, 60);
    expect(trimmed.length).toBeLessThanOrEqual(60);
    expect(trimmed.startsWith('# Reviewer Memory — run_x\n')).toBe(true);
    expect(memoryForRun(trimmed, 'run_x')).toMatch(/NEWEST$/);
  });
});

describe('GitHubReviewTarget', () => {
  it('reads claims and the merge base, and commits on the head it resolved', async () => {
    const { session, commits } = fakeSession({
      status: 'committed',
      sha: 'c'.repeat(40),
      parent: HEAD,
      rebuilt: false,
      files: ['a.ts'],
    });
    const target = new GitHubReviewTarget(session);
    expect(await target.claims()).toEqual({ source: `pull request #${PR}`, text: 'Title\n\nBody' });
    expect(await target.resolve()).toEqual({ base: 'mb-b', head: HEAD });
    const result = await target.commitFiles([{ path: 'a.ts', text: 'x' }], 'fix');
    expect(result).toEqual({ head: 'c'.repeat(40), refused: [] });
    expect(commits[0]?.expectedHead).toBe(HEAD);
    expect((await target.resolve()).head).toBe('c'.repeat(40));
  });

  it('follows a person’s push between rounds, but not GitHub’s stale head right after its own fix', async () => {
    const fixed = 'c'.repeat(40);
    const pushed = 'e'.repeat(40);
    const { session } = fakeSession(
      { status: 'committed', sha: fixed, parent: HEAD, rebuilt: false, files: ['a.ts'] },
      [HEAD, HEAD, pushed],
    );
    const target = new GitHubReviewTarget(session);
    expect((await target.resolve()).head).toBe(HEAD);
    await target.commitFiles([{ path: 'a.ts', text: 'x' }], 'fix');
    // GitHub still names the commit the fix was made on: the fix is the head
    expect((await target.resolve()).head).toBe(fixed);
    // a person pushed on top: the next round reviews that
    expect((await target.resolve()).head).toBe(pushed);
  });

  it('reports a refused or head-moved commit as refused files and keeps its head', async () => {
    const { session } = fakeSession({
      status: 'head-moved',
      reason: 'the branch moved',
      head: 'd'.repeat(40),
    });
    const target = new GitHubReviewTarget(session);
    expect(await target.commitFiles([{ path: 'a.ts', text: 'x' }], 'fix')).toEqual({
      head: HEAD,
      refused: [{ path: 'a.ts', reason: 'the branch moved' }],
    });
  });

  it('cuts a diff at a line break inside the budget', () => {
    expect(boundDiff('line one\nline two\nline three\n', 14)).toEqual({ text: 'line one', omittedChars: 21 });
    expect(boundDiff('short', 100)).toEqual({ text: 'short', omittedChars: 0 });
  });
});

describe('CommentCheckpoint', () => {
  it('always waits: the person answers with a later comment, handed to the engine as its resume input', async () => {
    expect(await new CommentCheckpoint().ask()).toEqual({ kind: 'wait' });
  });
});
