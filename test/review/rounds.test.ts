/**
 * The review loop's rounds end to end: the real engine, the local store and target on a real git
 * repository, and model answers served by nock in the providers' wire formats.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelCallError } from '../../src/llm/errors.js';
import { runReviewLoop } from '../../src/review/run.js';
import { strictNock } from '../helpers/nock-frame.js';
import {
  ANTHROPIC,
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
  scriptedCheckpoint,
  stageFile,
  stateOf,
  type Recorded,
} from '../helpers/review-fixtures.js';

strictNock();
afterEach(removeReviewDirs);

const HALVE = {
  summary: 'halve',
  edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
};

const THREE = [
  { title: 'Weakness one: half() divides by 3', minimum_fix: 'Divide by 2.' },
  { title: 'Weakness two: no test for half()', minimum_fix: 'Add a test.' },
  { title: 'Weakness three: README does not document rounding', minimum_fix: 'Say it.' },
];

describe('termination without acquittal', () => {
  it('gives up at max rounds, lists the blockers with an effort estimate each, and writes no receipt', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(
      reviewAnswer(3, 'not ready', [
        { ...HALF_BUG, effort: 'trivial' },
        { title: 'No tests', effort: 'medium' },
      ]),
    );
    anthropicReply(checkAnswer(true, true)); // the finding check
    openaiReply(HALVE);
    anthropicReply(
      reviewAnswer(5, 'not ready', [
        {
          title: 'No tests at all for calc',
          severity: 'critical',
          effort: 'large',
          minimum_fix: 'Write a test suite.',
        },
      ]),
    );
    // round 2's finding is round 1's "No tests" again (one finding, src/core/review/finding-identity.ts): no second check
    const h = await harness(dir, { options: { maxRounds: 2 } });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('max-rounds');
    expect(outcome.receipt).toBeNull();
    expect(outcome.blockers).toEqual([
      expect.objectContaining({
        title: 'No tests at all for calc',
        effort: 'large',
        minimum_fix: 'Write a test suite.',
      }),
    ]);
    expect(outcome.message).toMatch(/No acquittal after 2 rounds .*: 1 blocker remains\./);
    // the last round's review is not followed by a fix nobody would review: review, check, fix; review —
    // 4 calls, one commit
    expect(outcome.usage.calls).toBe(4);
    expect(existsSync(path.join(dir, 'review-stage', 'ACQUITTAL_LOG.jsonl'))).toBe(false);
    const log = await stageFile(dir, 'AUTO_REVIEW.md');
    expect(log).toContain('### Remaining Blockers');
    expect(log).toContain('1. [critical] No tests at all for calc');
    expect(log).toContain('   - Effort: a day or more (large)');
    expect(log).toMatch(/The score rose from 3\/10 to 5\/10/);
    expect(log).toContain('## Method Description');
    expect(await stateOf(dir)).toMatchObject({ status: 'completed', round: 2, outcome: 'max-rounds' });
  });

  it('refuses to acquit with a same-family reviewer: stops on its positive verdict, names both families, no receipt', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(8, 'ready'));
    const h = await harness(dir, {
      reviewer: 'anthropic:claude-sonnet-4-5',
      executor: 'anthropic:claude-haiku-4-5',
    });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('not-independent');
    expect(outcome.independence).toMatchObject({ relation: 'same', canAcquit: false });
    expect(outcome.message).toContain('reviewer anthropic:claude-sonnet-4-5 (family anthropic)');
    expect(outcome.message).toContain('executor anthropic:claude-haiku-4-5 (family anthropic)');
    // said up front, before the first round
    expect(h.log.warnings[0]).toMatch(/^This run cannot acquit: .*same family/);
    expect(outcome.receipt).toBeNull();
    expect(existsSync(path.join(dir, 'review-stage', 'ACQUITTAL_LOG.jsonl'))).toBe(false);
    expect(await stateOf(dir)).toMatchObject({
      status: 'completed',
      family_relation: 'same',
      outcome: 'not-independent',
    });
  });
});

describe('the cost budget', () => {
  it('ends the run between rounds once the estimated cost reaches --max-cost-usd', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply(HALVE);
    const h = await harness(dir, { options: { maxCostUsd: 0.001 } });
    const outcome = await runReviewLoop(h.options, h.ports);
    expect(outcome.status).toBe('budget');
    expect(outcome.rounds).toHaveLength(1);
    expect(outcome.usage.costUsd).toBeGreaterThanOrEqual(0.001);
    expect(outcome.message).toMatch(/^Cost budget of \$0.001 reached \(\$0\.\d{4} spent\) before round 2/);
    expect(outcome.blockers.map((b) => b.title)).toEqual([HALF_BUG.title]);
    expect(await stateOf(dir)).toMatchObject({ status: 'completed', outcome: 'budget' });
  });
});

describe('the token budget', () => {
  it('ends the run between rounds once the run has used maxTokens', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply(HALVE);
    const h = await harness(dir, { options: { maxTokens: 2_000 } });
    const outcome = await runReviewLoop(h.options, h.ports);
    expect(outcome.status).toBe('budget');
    expect(outcome.rounds).toHaveLength(1);
    expect(outcome.message).toMatch(/^Token budget of 2,000 reached \(3,400 used\) before round 2/);
  });
});

describe('hard mode', () => {
  it('debates: one accepted rebuttal resolves its weakness, the rejected one is still fixed', async () => {
    const dir = await makeReviewRepo();
    const reviewer: Recorded = { bodies: [] };
    const executor: Recorded = { bodies: [] };
    anthropicReply(reviewAnswer(4, 'not ready', THREE), reviewer);
    anthropicReply(checkAnswer(true, true, true)); // the finding check
    openaiReply(
      {
        rebuttals: [
          {
            weakness: 3,
            stance: 'reject',
            argument: 'Rounding is out of scope.',
            evidence: 'README says halves.',
          },
          { weakness: 2, stance: 'reject', argument: 'Tests are elsewhere.', evidence: 'none' },
          { weakness: 1, stance: 'accept', argument: 'Right.', evidence: 'calc.ts:6' },
        ],
      },
      executor,
    );
    anthropicReply(
      {
        rulings: [
          { weakness: 3, ruling: 'accepted', reason: 'Fair: not claimed.', required: null },
          { weakness: 2, ruling: 'rejected', reason: 'No test exists.', required: 'A test for half().' },
        ],
      },
      reviewer,
    );
    openaiReply(HALVE, executor);
    anthropicReply(reviewAnswer(8, 'ready'), reviewer);

    const h = await harness(dir, { options: { difficulty: 'hard' } });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('acquitted');
    const round1 = outcome.reports[0]!;
    expect(round1.debate?.resolved).toEqual([3]);
    expect(round1.weaknesses.map((w) => [w.rank, w.resolved_by_debate])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    // the reviewer ruled on the contested rebuttals only (#3, #2), not on #1 the executor accepted
    const ruling = anthropicUserText(reviewer.bodies[1]!);
    expect(ruling).toContain('Please rule on the author’s rebuttal below.');
    expect(ruling).toContain('Rebuttal to Weakness #3');
    expect(ruling).toContain('Rebuttal to Weakness #2');
    expect(ruling).not.toContain('Rebuttal to Weakness #1');
    // the fix was asked for #1 and #2, not the resolved #3
    const fixPrompt = openaiInputText(executor.bodies[1]!);
    expect(fixPrompt).toContain('Weakness one');
    expect(fixPrompt).toContain('Weakness two');
    expect(fixPrompt).not.toContain('Weakness three');
    const log = await stageFile(dir, 'AUTO_REVIEW.md');
    expect(log).toContain('### Debate Transcript (hard + nightmare only)');
    expect(log).toContain('- **Ruling**: accepted — Fair: not claimed.');
    expect(log).toContain('- **Ruling**: rejected — No test exists. (required: A test for half().)');
    expect(log).toContain('- Accepted objections (resolved): #3');
  });
});

describe('a garbled reviewer answer', () => {
  it('is asked once more, then recorded as REVIEW_UNAVAILABLE — never a verdict — and the next round runs', async () => {
    const dir = await makeReviewRepo();
    anthropicReply('Looks good to me, ship it! Score: 9/10, ready.');
    anthropicReply('{"score": "nine", "verdict": "ready"}');
    anthropicReply(reviewAnswer(7, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const h = await harness(dir);
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.rounds.map((r) => [r.round, r.score, r.verdict, r.positive])).toEqual([
      [1, null, 'unavailable', false],
      [2, 7, 'ready', true],
    ]);
    expect(outcome.status).toBe('acquitted');
    expect(outcome.receipt?.round).toBe(2);
    // no fix after an unreadable review: the executor was never called (two attempts, a review, its confirmation)
    expect(outcome.usage.calls).toBe(4);
    expect(h.log.warnings.some((w) => /round 1: reviewer answer unusable: .*asking once more/.test(w))).toBe(
      true,
    );
    const log = await stageFile(dir, 'AUTO_REVIEW.md');
    expect(log).toContain('- Verdict: REVIEW_UNAVAILABLE (no verdict: the answer could not be read)');
    expect(log).toContain('{"score": "nine", "verdict": "ready"}');
    const memory = await stageFile(dir, 'REVIEWER_MEMORY.md');
    expect(memory).toContain('## Round 1 — Score: unavailable');
    const traces = await readdir(path.join(dir, '.aris', 'traces', outcome.traceId!));
    expect(traces).toEqual(
      expect.arrayContaining(['round-01-review.response.md', 'round-01-review-attempt2.response.md']),
    );
    const meta = JSON.parse(
      await readFile(
        path.join(dir, '.aris', 'traces', outcome.traceId!, 'round-01-review-attempt2.meta.json'),
        'utf8',
      ),
    ) as { outcome: string };
    expect(meta.outcome).toBe('unusable');
  });
});

describe('resume', () => {
  it('resumes after a crash mid-round at that round, with the same run id and one section per round', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply(HALVE);
    nock(ANTHROPIC)
      .post('/v1/messages')
      .reply(400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } });
    const first = await harness(dir, { hex: 'deadbeef' });
    await expect(runReviewLoop(first.options, first.ports)).rejects.toBeInstanceOf(ModelCallError);
    const crashed = await stateOf(dir);
    expect(crashed).toMatchObject({ round: 1, status: 'in_progress' });
    const runId = crashed.run_id as string;

    anthropicReply(reviewAnswer(8, 'ready'));
    const second = await harness(dir, { hex: '00000000' });
    const outcome = await runReviewLoop(second.options, second.ports);

    expect(second.log.infos).toContain(
      `Recovered ${runId} from review-stage/REVIEW_STATE.json. Resuming at Round 2.`,
    );
    expect(outcome).toMatchObject({ status: 'acquitted', runId, resumed: true });
    expect(outcome.rounds.map((r) => r.round)).toEqual([1, 2]);
    const log = await stageFile(dir, 'AUTO_REVIEW.md');
    expect(log.match(/^## Round 1 \(/gm)).toHaveLength(1);
    expect(log.match(/^## Round 2 \(/gm)).toHaveLength(1);
    expect(log.match(/^# Auto Review Loop — /gm)).toHaveLength(1);
    expect(await receiptsOf(dir)).toEqual([expect.objectContaining({ run_id: runId, round: 2 })]);
  });

  it('is interrupted by its AbortSignal with the state saved, and the next call resumes that round', async () => {
    const dir = await makeReviewRepo();
    nock(ANTHROPIC).post('/v1/messages').delay(5_000).reply(200, {});
    const controller = new AbortController();
    const h = await harness(dir);
    h.ports.signal = controller.signal;
    h.ports.events = {
      emit: (e) => {
        if (e.type === 'round-started') setTimeout(() => controller.abort(new Error('SIGINT')), 50);
      },
    };
    const outcome = await runReviewLoop(h.options, h.ports);
    expect(outcome.status).toBe('interrupted');
    expect(outcome.message).toMatch(/resume at round 1/);
    expect(await stateOf(dir)).toMatchObject({ status: 'in_progress', round: 0, run_id: outcome.runId });
    nock.abortPendingRequests();
    nock.cleanAll();

    anthropicReply(reviewAnswer(7, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const again = await harness(dir);
    const resumed = await runReviewLoop(again.options, again.ports);
    expect(resumed).toMatchObject({ status: 'acquitted', runId: outcome.runId, resumed: true });
  });
});

describe('the checkpoint', () => {
  it('skip 2: the fix leaves weakness #2 out and the log says so', async () => {
    const dir = await makeReviewRepo();
    const executor: Recorded = { bodies: [] };
    anthropicReply(reviewAnswer(4, 'not ready', THREE));
    anthropicReply(checkAnswer(true, true, true)); // the finding check
    openaiReply(HALVE, executor);
    anthropicReply(reviewAnswer(8, 'ready'));
    const checkpoint = scriptedCheckpoint([{ kind: 'skip', items: [2] }]);
    const h = await harness(dir, { options: { checkpoint: true }, checkpoint });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('acquitted');
    expect(checkpoint.asked).toBe(1);
    const fixPrompt = openaiInputText(executor.bodies[0]!);
    expect(fixPrompt).toContain('Weakness one');
    expect(fixPrompt).not.toContain('Weakness two');
    expect(fixPrompt).toContain('Weakness three');
    expect(outcome.reports[0]!.fix?.skipped).toEqual([2]);
    expect(await stageFile(dir, 'AUTO_REVIEW.md')).toContain('- Skipped at the checkpoint: #2');
  });

  it('waits when nobody answers, and a later call with the answer fixes without reviewing round 1 again', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    anthropicReply(checkAnswer(true)); // the finding check
    const first = await harness(dir, { options: { checkpoint: true }, checkpoint: scriptedCheckpoint([]) });
    const paused = await runReviewLoop(first.options, first.ports);
    expect(paused.status).toBe('awaiting-checkpoint');
    expect(paused.awaiting).toMatchObject({ kind: 'checkpoint', round: 1 });
    // the reviewed round travels with the pause, so a front-end can show the review while it waits
    expect(paused.reports.map((r) => [r.round, r.phase, r.score])).toEqual([[1, 'awaiting-checkpoint', 4]]);
    expect(await stateOf(dir)).toMatchObject({
      status: 'in_progress',
      awaiting: 'checkpoint',
      round: 0,
      pending: { round: 1, score: 4 },
    });

    const executor: Recorded = { bodies: [] };
    openaiReply({ ...HALVE, summary: 'as instructed' }, executor);
    anthropicReply(reviewAnswer(9, 'ready'));
    const second = await harness(dir, { options: { checkpoint: true }, checkpoint: scriptedCheckpoint([]) });
    const outcome = await runReviewLoop(second.options, second.ports, {
      checkpoint: { kind: 'guidance', text: 'Only fix the division; keep the signature.' },
    });
    expect(outcome.status).toBe('acquitted');
    expect(outcome.rounds.map((r) => [r.round, r.score])).toEqual([
      [1, 4],
      [2, 9],
    ]);
    expect(openaiInputText(executor.bodies[0]!)).toContain('Only fix the division; keep the signature.');
    expect(await stageFile(dir, 'AUTO_REVIEW.md')).toContain(
      '- Guidance from the checkpoint: Only fix the division; keep the signature.',
    );
  });
});

describe('instructions from outside a checkpoint', () => {
  it('are taken once by the next fix that has work, quoted to the executor and logged', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    const executor: Recorded = { bodies: [] };
    openaiReply(HALVE, executor);
    anthropicReply(reviewAnswer(9, 'ready'));
    const h = await harness(dir);
    let pending: string | null = 'Keep the signature; divide by two.';
    let taken = 0;
    const outcome = await runReviewLoop(h.options, {
      ...h.ports,
      instructions: {
        take: async () => {
          taken++;
          const text = pending;
          pending = null;
          return text;
        },
      },
    });
    expect(outcome.status).toBe('acquitted');
    expect(taken).toBe(1);
    expect(openaiInputText(executor.bodies[0]!)).toContain('Keep the signature; divide by two.');
    expect(outcome.reports[0]!.fix).toMatchObject({
      guidance: null,
      instructions: 'Keep the signature; divide by two.',
    });
    expect(await stageFile(dir, 'AUTO_REVIEW.md')).toContain(
      '- Instructions for the fix: Keep the signature; divide by two.',
    );
  });

  it('are left in place when no fix runs (the first review acquits)', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(9, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const h = await harness(dir);
    let taken = 0;
    const outcome = await runReviewLoop(h.options, {
      ...h.ports,
      instructions: { take: async () => (taken++, 'unused') },
    });
    expect(outcome.status).toBe('acquitted');
    expect(taken).toBe(0);
  });
});

describe('--fix manual', () => {
  it('pauses after the review, waits for a commit, then reviews the new head shown the person’s diff', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    anthropicReply(checkAnswer(true)); // the finding check
    const manual = { fix: 'manual' as const };
    const first = await harness(dir, { options: manual });
    const paused = await runReviewLoop(first.options, first.ports);
    expect(paused.status).toBe('awaiting-fix');
    expect(paused.usage.calls).toBe(2);
    expect(await stateOf(dir)).toMatchObject({ status: 'in_progress', round: 1, awaiting: 'fix' });

    // no new commit: nothing is reviewed, no model is called
    const idle = await harness(dir, { options: manual });
    const still = await runReviewLoop(idle.options, idle.ports);
    expect(still.status).toBe('awaiting-fix');
    expect(still.message).toMatch(/No new commit since round 1/);
    expect(still.invocationUsage.calls).toBe(0);

    const reviewedHead = head(dir);
    await writeFile(path.join(dir, 'src/calc.ts'), CALC_BRANCH.replace('n / 3', 'n / 2'));
    git(dir, 'commit', '-q', '-am', 'fix half()');
    const reviewer: Recorded = { bodies: [] };
    anthropicReply(reviewAnswer(8, 'ready'), reviewer);
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const third = await harness(dir, { options: manual });
    const outcome = await runReviewLoop(third.options, third.ports);
    expect(outcome).toMatchObject({ status: 'acquitted', runId: paused.runId });
    const prompt = anthropicUserText(reviewer.bodies[0]!);
    expect(prompt).toContain('[Round 2/4 update]');
    expect(prompt).toContain(`Raw diff ${reviewedHead.slice(0, 12)}..${head(dir).slice(0, 12)}`);
    expect(prompt).toContain('+  return n / 2;');
  });
});

describe('a head is reviewed once', () => {
  it('--fix auto whose edits are all refused waits for a commit and says why, instead of reviewing the head again', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply({
      summary: 'two edits',
      edits: [
        { path: '.github/workflows/ci.yml', old_string: 'a', new_string: 'b' },
        { path: 'src/calc.ts', old_string: 'n / 4', new_string: 'n / 2' },
      ],
    });
    const first = await harness(dir);
    const reviewed = head(dir);
    const waiting = await runReviewLoop(first.options, first.ports);

    expect(waiting.status).toBe('awaiting-fix');
    expect(waiting.awaiting).toEqual({ kind: 'fix', round: 1, head: reviewed, unchanged: 'fix' });
    expect(waiting.message).toBe(
      "Round 1's fix changed nothing: 2 edits were refused: `.github/workflows/ci.yml` (.github/workflows/ is never " +
        'edited by the review loop); `src/calc.ts` (old_string does not occur in the file). ' +
        `${reviewed.slice(0, 12)} was reviewed already, so it is not reviewed again: commit a fix, then run the review again for round 2.`,
    );
    // one review and one fix call (which checks the finding); the state waits for a fix on the head it reviewed
    expect(waiting.invocationUsage.calls).toBe(2);
    expect(head(dir)).toBe(reviewed);
    expect(await stateOf(dir)).toMatchObject({ status: 'in_progress', round: 1, awaiting: 'fix' });
    expect(await stageFile(dir, 'AUTO_REVIEW.md')).toContain(
      "waiting for a fix: this round's fix changed nothing",
    );

    // run again without a commit: nothing is reviewed, no model is called
    const idle = await harness(dir);
    const still = await runReviewLoop(idle.options, idle.ports);
    expect(still).toMatchObject({ status: 'awaiting-fix', awaiting: { unchanged: 'no-commit' } });
    expect(still.invocationUsage.calls).toBe(0);

    // the person's commit is round 2's head
    await writeFile(path.join(dir, 'src/calc.ts'), CALC_BRANCH.replace('n / 3', 'n / 2'));
    git(dir, 'commit', '-q', '-am', 'fix half()');
    anthropicReply(reviewAnswer(8, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const third = await harness(dir);
    const outcome = await runReviewLoop(third.options, third.ports);
    expect(outcome).toMatchObject({ status: 'acquitted', runId: waiting.runId });
    expect(outcome.rounds.map((r) => r.head)).toEqual([reviewed, head(dir)]);
  });
});

describe('fix edits', () => {
  it('applies only allow-listed edits and records every refusal with its reason', async () => {
    const dir = await makeReviewRepo();
    await writeFile(path.join(dir, 'src/dup.ts'), 'const a = 1;\nconst a2 = 1;\n');
    await symlink('../README.md', path.join(dir, 'src/readme-link.md'));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'dup and link');
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply({
      summary: 'many edits',
      edits: [
        { path: '.github/workflows/ci.yml', old_string: 'a', new_string: 'b' },
        { path: 'README.md', old_string: 'Claims', new_string: 'Promises' },
        { path: '../outside.txt', old_string: 'a', new_string: 'b' },
        { path: '/etc/hosts', old_string: 'a', new_string: 'b' },
        { path: 'review-stage/AUTO_REVIEW.md', old_string: 'Round', new_string: 'Rnd' },
        { path: 'src/dup.ts', old_string: ' = 1;', new_string: ' = 2;' },
        { path: 'src/readme-link.md', old_string: 'calc', new_string: 'calculator' },
        { path: 'src/other.ts', old_string: 'other = 1', new_string: 'other = 2' },
        { path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' },
      ],
    });
    // src/other.ts is not part of the change: only the configured glob lets a fix edit it
    const h = await harness(dir, { options: { maxRounds: 2, allowGlobs: ['**/other.ts'] } });
    anthropicReply(reviewAnswer(8, 'ready'));
    const outcome = await runReviewLoop(h.options, h.ports);

    const fix = outcome.reports[0]!.fix!;
    expect(fix.applied.map((a) => a.path).sort()).toEqual(['src/calc.ts', 'src/other.ts']);
    const reasons = Object.fromEntries(fix.rejected.map((r) => [r.path, r.reason]));
    expect(reasons).toEqual({
      '.github/workflows/ci.yml': '.github/workflows/ is never edited by the review loop',
      'README.md':
        'not in the allow-list (only files the change under review touches, plus configured globs)',
      '../outside.txt': '".." segments are refused',
      '/etc/hosts': 'absolute paths are refused',
      'review-stage/AUTO_REVIEW.md': 'review-stage/ is never edited by the review loop',
      'src/dup.ts': 'old_string occurs 2 times (it must occur exactly once)',
      'src/readme-link.md': 'symbolic links are never edited',
    });
    expect(await readFile(path.join(dir, 'README.md'), 'utf8')).toContain('Claims');
    expect(await readFile(path.join(dir, 'src/other.ts'), 'utf8')).toBe('export const other = 2;\n');
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual([
      'src/calc.ts',
      'src/other.ts',
    ]);
    const log = await stageFile(dir, 'AUTO_REVIEW.md');
    expect(log).toContain('- Refused edit to src/readme-link.md: symbolic links are never edited');
    expect(log).toContain(
      '- Refused edit to .github/workflows/ci.yml: .github/workflows/ is never edited by the review loop',
    );
  });
});

describe('the receipt', () => {
  it('names the acquitted head and a trace folder holding the acquitting round', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(6, 'almost', [{ title: 'Minor naming', severity: 'minor' }]));
    // the confirmation, then one check for the round's minor finding
    anthropicReply(reviewAnswer(8, 'ready'));
    anthropicReply(checkAnswer(true));
    const h = await harness(dir);
    const outcome = await runReviewLoop(h.options, h.ports);
    expect(outcome.status).toBe('acquitted');
    const [receipt] = await receiptsOf(dir);
    expect(receipt).toMatchObject({
      verdict: 'almost',
      score: 6,
      head: head(dir),
      backend: 'anthropic',
      effort: 'high-rigor',
    });
    const files = await readdir(path.join(dir, '.aris', 'traces', String(receipt!.trace_id)));
    expect(files).toContain('round-01-review.response.md');
  });
});
