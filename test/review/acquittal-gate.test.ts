/**
 * The original's four acquittal-gate test specifications (run_id binding and the append-only receipt),
 * run against the real engine, the local store on disk, and nock-served model answers.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runReviewLoop } from '../../src/review/run.js';
import { strictNock } from '../helpers/nock-frame.js';
import {
  anthropicReply,
  HALF_BUG,
  harness,
  makeReviewRepo,
  openaiReply,
  receiptsOf,
  removeReviewDirs,
  reviewAnswer,
  stageFile,
  stateOf,
} from '../helpers/review-fixtures.js';

strictNock();
afterEach(removeReviewDirs);

/** The specifications' date: run ids are `run_20260713_<hex>`. */
const JULY_13 = () => new Date('2026-07-13T12:00:00Z');
const FIX = { summary: 'halve', edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }] };

describe('acquittal gate', () => {
  it('Test 1 — fresh start: a positive round 1 appends one receipt with the current run_id and stops', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(7, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const h = await harness(dir, { hex: 'a1b2c3d4', now: JULY_13 });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('acquitted');
    expect(outcome.runId).toBe('run_20260713_a1b2c3d4');
    expect(outcome.rounds).toHaveLength(1);
    const receipts = await receiptsOf(dir);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({
      run_id: 'run_20260713_a1b2c3d4',
      round: 1,
      verdict: 'ready',
      score: 7,
    });
    expect(receipts[0]!.trace_id).toBe('auto-review-loop/2026-07-13_run01');
    expect((await stateOf(dir)).status).toBe('completed');
  });

  it('Test 2 — an old run’s acquittal does not satisfy a new run; the new run acquits on its own receipt', async () => {
    const dir = await makeReviewRepo();
    const stage = path.join(dir, 'review-stage');
    await mkdir(stage);
    const oldLine =
      '{"run_id":"run_20260713_aaaaaaaa","backend":"claude-review","verdict":"ready","score":7}\n';
    await writeFile(path.join(stage, 'ACQUITTAL_LOG.jsonl'), oldLine);
    await writeFile(
      path.join(stage, 'REVIEW_STATE.json'),
      JSON.stringify({
        run_id: 'run_20260713_aaaaaaaa',
        round: 1,
        threadId: null,
        status: 'completed',
        last_score: 7,
        last_verdict: 'ready',
        pending_experiments: [],
        timestamp: '2026-07-13T09:00:00Z',
      }),
    );
    anthropicReply(reviewAnswer(5, 'not ready', [HALF_BUG]));
    openaiReply(FIX);
    anthropicReply(reviewAnswer(8, 'ready'));

    const h = await harness(dir, { hex: 'bbbbbbbb', now: JULY_13 });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.runId).toBe('run_20260713_bbbbbbbb');
    expect(outcome.status).toBe('acquitted');
    // round 1 (5, not ready) did not stop the loop although an acquittal line was already in the log
    expect(outcome.rounds.map((r) => r.score)).toEqual([5, 8]);
    const text = await stageFile(dir, 'ACQUITTAL_LOG.jsonl');
    expect(text.startsWith(oldLine)).toBe(true);
    const receipts = await receiptsOf(dir);
    expect(receipts.map((r) => r.run_id)).toEqual(['run_20260713_aaaaaaaa', 'run_20260713_bbbbbbbb']);
    expect(receipts[1]).toMatchObject({ round: 2, verdict: 'ready', score: 8 });
    expect(outcome.receipt?.run_id).toBe('run_20260713_bbbbbbbb');
    expect(h.log.infos.join('\n')).toContain('the previous run completed: fresh run');
  });

  it('Test 3 — a legacy state without run_id gets a new one, logged with the original’s exact line', async () => {
    const dir = await makeReviewRepo();
    const stage = path.join(dir, 'review-stage');
    await mkdir(stage);
    await writeFile(
      path.join(stage, 'REVIEW_STATE.json'),
      JSON.stringify({
        round: 1,
        threadId: '019cd392-abc',
        status: 'in_progress',
        last_score: 5.0,
        last_verdict: 'not ready',
        pending_experiments: [],
        timestamp: '2026-07-13T10:00:00',
      }),
    );
    anthropicReply(reviewAnswer(7, 'almost'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review

    const h = await harness(dir, { hex: 'cccccccc', now: JULY_13 });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(h.log.infos).toContain(
      'No run_id in legacy state file; assigned run_20260713_cccccccc for this resume.',
    );
    expect(h.log.infos.some((l) => l.endsWith('Resuming at Round 2.'))).toBe(true);
    expect(outcome.resumed).toBe(true);
    expect(outcome.runId).toBe('run_20260713_cccccccc');
    expect(outcome.rounds.map((r) => r.round)).toEqual([2]);
    expect(await receiptsOf(dir)).toEqual([
      expect.objectContaining({ run_id: 'run_20260713_cccccccc', round: 2, verdict: 'almost' }),
    ]);
    expect(await stateOf(dir)).toMatchObject({
      run_id: 'run_20260713_cccccccc',
      round: 2,
      status: 'completed',
    });
  });

  it('Test 4 — append-only integrity: two acquitting runs leave exactly two lines, the first unchanged', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(7, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const first = await harness(dir, { hex: '11111111', now: JULY_13 });
    const run1 = await runReviewLoop(first.options, first.ports);
    expect(run1.status).toBe('acquitted');
    const afterRun1 = await readFile(path.join(dir, 'review-stage', 'ACQUITTAL_LOG.jsonl'), 'utf8');

    // the completed run 1 cannot continue: the next invocation is a new run with its own id
    anthropicReply(reviewAnswer(9, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const second = await harness(dir, { hex: '22222222', now: JULY_13 });
    const run2 = await runReviewLoop(second.options, second.ports);
    expect(run2.status).toBe('acquitted');
    expect(run2.resumed).toBe(false);

    const afterRun2 = await readFile(path.join(dir, 'review-stage', 'ACQUITTAL_LOG.jsonl'), 'utf8');
    expect(afterRun2.startsWith(afterRun1)).toBe(true);
    const lines = afterRun2.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    const ids = lines.map((l) => (JSON.parse(l) as { run_id: string }).run_id);
    expect(ids).toEqual(['run_20260713_11111111', 'run_20260713_22222222']);
    // each run has its own trace folder, and each receipt names its own
    expect(lines.map((l) => (JSON.parse(l) as { trace_id: string }).trace_id)).toEqual([
      'auto-review-loop/2026-07-13_run01',
      'auto-review-loop/2026-07-13_run02',
    ]);
  });
});
