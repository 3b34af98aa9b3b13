import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runReviewLoop } from '../../src/review/run.js';
import { strictNock } from '../helpers/nock-frame.js';
import {
  anthropicReply,
  anthropicUserText,
  CALC_BRANCH,
  checkAnswer,
  git,
  HALF_BUG,
  harness,
  head,
  makeReviewRepo,
  openaiInputText,
  openaiReply,
  receiptsOf,
  removeReviewDirs,
  reviewAnswer,
  stageFile,
  stateOf,
  type Recorded,
} from '../helpers/review-fixtures.js';

strictNock();
afterEach(removeReviewDirs);

const FIX = {
  summary: 'Divide by two as the README claims.',
  edits: [{ path: 'src/calc.ts', old_string: 'return n / 3;', new_string: 'return n / 2;' }],
};

describe('a medium run with --fix auto', () => {
  it('fixes in round 1, commits once, and acquits in round 2 shown only the commit’s diff', async () => {
    const dir = await makeReviewRepo();
    const before = head(dir);
    const reviewer: Recorded = { bodies: [] };
    const executor: Recorded = { bodies: [] };
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG], 'Suspicion: half() is wrong.'), reviewer);
    // The fix follows at once: the executor checks the finding in its fix call (§ Approval under noise).
    openaiReply({ ...FIX, ...checkAnswer(true) }, executor);
    // Round 2 reviews round 1's own fix: an approval there needs no confirmation.
    anthropicReply(reviewAnswer(8, 'ready', [], 'half() now divides by 2.'), reviewer);

    const h = await harness(dir, { hex: 'a1b2c3d4' });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('acquitted');
    expect(outcome.rounds.map((r) => [r.round, r.score, r.verdict])).toEqual([
      [1, 4, 'not ready'],
      [2, 8, 'ready'],
    ]);
    // one commit, on the current branch, holding exactly the executor's edit
    expect(git(dir, 'rev-list', '--count', `${before}..HEAD`).trim()).toBe('1');
    expect(git(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('feature');
    expect(await readFile(path.join(dir, 'src/calc.ts'), 'utf8')).toBe(CALC_BRANCH.replace('n / 3', 'n / 2'));
    expect(git(dir, 'log', '-1', '--format=%s').trim()).toMatch(
      /^review-loop: round 1 edits src\/calc\.ts \(run_\d{8}_a1b2c3d4\)$/,
    );
    // the body says what the commit changes (the file, the line the edit replaced) and what the executor
    // was asked, never that anything was addressed: nothing checked that (the next round's review does)
    const commitBody = git(dir, 'log', '-1', '--format=%b');
    const changedLine = CALC_BRANCH.split('\n').indexOf('  return n / 3;') + 1;
    expect(changedLine).toBeGreaterThan(0);
    expect(commitBody).toContain(`- src/calc.ts: 1 line replaced (line ${changedLine})`);
    expect(commitBody).toContain("The findings of round 1's review it was asked to address");
    expect(commitBody).not.toMatch(/addressed|fixed/i);
    // the findings are listed once each, numbered, without a second list marker ("- 1. …")
    expect(commitBody).toMatch(/^1\. \S/m);
    expect(commitBody).not.toMatch(/^- \d+\. /m);

    // round 1 saw the change; round 2 saw the diff between the two reviewed heads and never the executor's words
    const round1 = anthropicUserText(reviewer.bodies[0]!);
    expect(round1).toContain('[Round 1/4 of autonomous review loop]');
    expect(round1).toContain('return n / 3;');
    expect(round1).toContain('SCOPE LIMITS');
    const round2 = anthropicUserText(reviewer.bodies[1]!);
    expect(round2).toContain('[Round 2/4 update]');
    const commitDiff = git(dir, 'diff', '--no-color', '-M', before, 'HEAD');
    const since = /BEGIN-SINCE-LAST-REVIEW-([0-9a-f-]+)\n([\s\S]*?)\nEND-SINCE-LAST-REVIEW-\1/.exec(round2);
    expect(since?.[2]?.trimEnd()).toBe(commitDiff.trimEnd());
    expect(round2).not.toContain(FIX.summary);
    expect(round2).toContain('## Your Reviewer Memory (persistent across rounds)');
    expect(round2).toContain('Suspicion: half() is wrong.');
    // the executor was asked with the file it may edit
    expect(openaiInputText(executor.bodies[0]!)).toContain('half() divides by 3');

    const receipts = await receiptsOf(dir);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({
      run_id: outcome.runId,
      round: 2,
      verdict: 'ready',
      score: 8,
      reviewer_family: 'anthropic',
      executor_family: 'openai',
      family_relation: 'different',
      head: head(dir),
    });
    expect(existsSync(path.join(dir, '.aris', 'traces', String(receipts[0]!.trace_id)))).toBe(true);

    const state = await stateOf(dir);
    expect(state).toMatchObject({
      run_id: outcome.runId,
      round: 2,
      status: 'completed',
      threadId: null,
      last_score: 8,
      last_verdict: 'ready',
      pending_experiments: [],
    });
    const log = await stageFile(dir, 'AUTO_REVIEW.md');
    expect(log).toMatch(/## Round 1 \(\d{4}-\d\d-\d\dT/);
    expect(log).toMatch(/## Round 2 \(/);
    expect(log).toContain('<summary>Click to expand full reviewer response</summary>');
    expect(log).toContain('## Method Description');
    expect(log).toContain(`## Final Summary — ${outcome.runId}`);
    const memory = await stageFile(dir, 'REVIEWER_MEMORY.md');
    expect(memory).toContain('## Round 1 — Score: 4/10');
    expect(memory).toContain('## Round 2 — Score: 8/10');
    // review, fix (with the finding check); review
    expect(outcome.usage.calls).toBe(3);
    expect(outcome.usage.costUsd).toBeGreaterThan(0);
    expect(h.log.progressLines.filter((l) => /^round \d\/4: score/.test(l))).toHaveLength(2);

    // the trace folder holds each call's request (no key), raw response and meta
    const traceDir = path.join(dir, '.aris', 'traces', String(receipts[0]!.trace_id));
    const files = (await readdir(traceDir)).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'round-01-review.request.json',
        'round-01-review.response.md',
        'round-01-review.meta.json',
        'round-01-fix.request.json',
        'round-02-review.response.md',
      ]),
    );
    // the fix call checked the finding; round 2 reviewed round 1's own fix, so nothing was confirmed
    expect(files.filter((f) => /finding-check|confirmation/.test(f))).toEqual([]);
    for (const file of files) {
      const text = await readFile(path.join(traceDir, file), 'utf8');
      expect(text).not.toContain('sk-ant-review-test-key');
      expect(text).not.toContain('sk-openai-review-test');
    }
  });
});
