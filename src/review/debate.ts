/**
 * Phase B.6, the debate (hard and nightmare; docs/how-it-works.md § Debate and nightmare): the executor
 * rebuts up to three weaknesses, the reviewer rules on the contested ones, and only an accepted rebuttal
 * resolves a weakness. Rulings never change the round's score or verdict.
 */
import type { Rebuttal, Ruling } from '../core/review/answers.js';
import type { DebateRecord } from '../core/review/outcome.js';
import type { RankedWeakness } from '../core/review/state.js';
import { callWithOneRetry, type RoundMeter } from './calls.js';
import type { RoundMaterial } from './material.js';
import type { RunContext } from './start.js';

export const MAX_REBUTTALS = 3;

function transcript(
  weaknesses: readonly RankedWeakness[],
  rebuttals: readonly Rebuttal[],
  rulings: readonly Ruling[],
  notes: readonly string[],
): string {
  const lines: string[] = [];
  for (const r of rebuttals) {
    const title = weaknesses.find((w) => w.rank === r.weakness)?.title ?? '(unknown weakness)';
    const ruling = rulings.find((x) => x.weakness === r.weakness);
    lines.push(
      `#### Rebuttal to Weakness #${r.weakness}: ${title}`,
      `- **${r.stance}**`,
      `- **Argument**: ${r.argument}`,
      `- **Evidence**: ${r.evidence}`,
      ruling
        ? `- **Ruling**: ${ruling.ruling} — ${ruling.reason}${ruling.required ? ` (required: ${ruling.required})` : ''}`
        : `- **Ruling**: none (${r.stance === 'accept' ? 'the executor accepted the criticism' : 'not ruled on'})`,
      '',
    );
  }
  const accepted = rulings.filter((r) => r.ruling === 'accepted').map((r) => `#${r.weakness}`);
  const rejected = rulings.filter((r) => r.ruling !== 'accepted').map((r) => `#${r.weakness} (${r.ruling})`);
  lines.push(
    `- Accepted objections (resolved): ${accepted.join(', ') || 'none'}`,
    `- Rejected or partial (still to fix): ${rejected.join(', ') || 'none'}`,
    ...notes.map((n) => `- ${n}`),
  );
  return lines.join('\n');
}

export async function debate(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  material: RoundMaterial,
  weaknesses: RankedWeakness[],
): Promise<DebateRecord> {
  const { models } = ctx.ports;
  const notes: string[] = [];
  const reply = await callWithOneRetry(ctx, meter, round, 'rebuttal', () =>
    models.rebut({ weaknesses, change: material.change }, ctx.signal),
  );
  if (!reply.ok) {
    notes.push(
      `the executor’s rebuttal could not be read (${reply.error.message}); no weakness was contested`,
    );
    return { rebuttals: [], rulings: [], resolved: [], transcript: transcript(weaknesses, [], [], notes) };
  }
  const known = new Set(weaknesses.map((w) => w.rank));
  const seen = new Set<number>();
  const rebuttals = reply.call.value.rebuttals
    .filter((r) => known.has(r.weakness) && !seen.has(r.weakness) && seen.add(r.weakness))
    .slice(0, MAX_REBUTTALS);
  const contested = rebuttals.filter((r) => r.stance !== 'accept');
  let rulings: Ruling[] = [];
  if (contested.length > 0) {
    const ruled = await callWithOneRetry(ctx, meter, round, 'ruling', () =>
      models.rule(
        { weaknesses, rebuttals: contested, change: material.change, preset: ctx.options.preset },
        ctx.signal,
      ),
    );
    if (ruled.ok) {
      const asked = new Set(contested.map((r) => r.weakness));
      rulings = ruled.call.value.rulings.filter((r) => asked.has(r.weakness));
    } else {
      notes.push(
        `the reviewer’s ruling could not be read (${ruled.error.message}); every contested weakness stands`,
      );
    }
  }
  const resolved = rulings.filter((r) => r.ruling === 'accepted').map((r) => r.weakness);
  for (const w of weaknesses) if (resolved.includes(w.rank)) w.resolved_by_debate = true;
  return { rebuttals, rulings, resolved, transcript: transcript(weaknesses, rebuttals, rulings, notes) };
}
