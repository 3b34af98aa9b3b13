/**
 * Fresh draws of findings one draw at a time, until each is decided (docs/how-it-works.md § The nightly
 * engine improves the reviewer): the accepted-findings floor's re-check (accepted-floor.ts) and the
 * silencing probe's look (silencing-probe.ts) both ask, of a few scenarios that each assert a finding is
 * raised, "does this text raise it?", and stop drawing a scenario once their rule (`look`) has an answer.
 */
import type { Scenario, SkillEvals } from '../../core/iterate/evals.js';
import { acceptedRaised, type RaisedTally } from '../../core/iterate/feedback-evidence.js';
import type { Usage } from '../../core/usage.js';
import { measureDraws } from '../trials.js';
import type { LoopContext } from './context.js';

/**
 * Draws `text` on `scenarios` (of `evals`), numbered from `draws.first`, at most `draws.max` times; a
 * scenario is drawn again only while `look` says `continue`. Each scenario's tally by id, or why the draws
 * failed. `spend` is told each draw's usage.
 */
export async function drawUntilDecided(
  loop: LoopContext,
  text: string,
  evals: SkillEvals,
  scenarios: readonly Scenario[],
  draws: { first: number; max: number; look: (tally: RaisedTally) => string },
  signal: AbortSignal,
  spend: (usage: Usage) => void,
): Promise<Map<string, RaisedTally> | { failed: string }> {
  const tally = new Map(scenarios.map((s) => [s.id, { raised: 0, missed: 0 }]));
  for (let d = 0; d < draws.max; d++) {
    const open = scenarios.filter((s) => draws.look(tally.get(s.id)!) === 'continue');
    if (open.length === 0) break;
    const drawn = await measureDraws(loop.request(text, signal, { ...evals, scenarios: open }), [
      draws.first + d,
    ]);
    spend(drawn.usage);
    const result = drawn.draws[0]?.absolute;
    if (drawn.status !== 'ok' || !result) return { failed: `${drawn.status}: ${drawn.detail ?? 'no score'}` };
    for (const s of open) {
      const t = tally.get(s.id)!;
      if (acceptedRaised(s, result)) t.raised++;
      else t.missed++;
    }
  }
  return tally;
}
