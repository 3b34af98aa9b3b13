/**
 * One skill's hill-climb in its worktree (docs/how-it-works.md § The hill-climb loop): a baseline, then
 * iterations until a cap fires, then the ship gate's confirmation. Nothing in here asks anyone anything.
 * The bookkeeping is the pure step of core/iterate/hill-climb.ts; the folder is the I/O around it, one
 * step a file:
 *
 * - baseline.ts: the baseline and its retries; baseline-measurement.ts: its draws and where the climb starts
 * - iteration.ts: one iteration (steps A–H); attempt.ts: propose, apply, commit and score (A–D);
 *   screening.ts: the noise-aware screening of D; keep-decision.ts: keep, revert or crash (E/F)
 * - record.ts: the results.tsv row (G); caps.ts: the caps and budgets (H); background-reset.ts: H's reset
 * - confirmation.ts: the ship gate's fresh draws
 * - context.ts: what the steps share; ledger.ts: the loop's one mutable state; skill-file.ts: SKILL.md on
 *   disk; types.ts: the loop's input and result
 */
import { confirm } from './confirmation.js';
import { scoreBaseline } from './baseline.js';
import { capReached } from './caps.js';
import { LoopContext } from './context.js';
import { runIteration } from './iteration.js';
import type { SkillLoopInput, SkillLoopResult } from './types.js';

export async function runSkillLoop(input: SkillLoopInput): Promise<SkillLoopResult> {
  const loop = await LoopContext.open(input);
  const early = await scoreBaseline(loop);
  if (early) {
    await loop.settleReports();
    return loop.result(early.stop, early.ambiguousReason);
  }
  for (;;) {
    if (input.signal?.aborted) {
      await loop.startSettled();
      await loop.resets.settle().catch(() => undefined);
      throw loop.interrupted();
    }
    // The first iteration starts from draw 0's state while the baseline's extra draws run beside its
    // editor call (baseline.ts); it waits for them before it reads anything they decide.
    const stop = capReached(loop, true) ?? (await runIteration(loop, loop.editFrom()));
    if (stop) {
      // A cap before the first iteration: the baseline's draws are still the start the confirmation needs.
      await loop.startSettled();
      // The branch tip is what ships: the last revert's reset must be done.
      await loop.resets.settleOrFail();
      if (stop !== 'consecutive crashes') await confirm(loop, stop);
      // The uplift's draw ran beside the iterations: its report and spend belong to the result.
      await loop.settleReports();
      return loop.result(stop);
    }
  }
}
