/**
 * What the night measured of a skill, as Markdown lines for the morning summary and the skill's PR body
 * (docs/how-it-works.md § Decisions under noise): the baseline's spread, the verdicts that changed between
 * trials, the confirmation with its interval and evidence table, the holdout, the uplift and the eval-quality
 * findings. Every figure says how many draws it rests on. Pure.
 */
import { formatGain, passRate, type NoiseReport, type PassCount } from './noise.js';
import type { SkillMeasurement, SkillResult, StoredTrials } from './run-result.js';
import { feedbackEvidenceLines } from './feedback-evidence.js';
import { inertInline } from '../text/untrusted-text.js';
import { compareScores } from './ship-gate.js';

function kOfN(c: PassCount): string {
  return `${c.passes} of ${c.total}`;
}

function percent(c: PassCount): string {
  return `${(passRate(c) * 100).toFixed(1)} %`;
}

/** An assertion as `#3 "statement"` (the statement is eval-file text: inert, cut). */
function assertionLabel(m: SkillMeasurement, id: number): string {
  const statement = m.statements[String(id)];
  return statement === undefined ? `#${id}` : `#${id} "${inertInline(statement.replace(/\s+/g, ' '), 120)}"`;
}

/** The evidence table: each assertion whose pass rate changed between the confirmation's two texts. */
function evidenceTable(m: SkillMeasurement): string[] {
  const c = m.confirmation;
  if (!c) return [];
  if (c.evidence.length === 0) return ['No assertion changed its pass rate between the two texts.'];
  return [
    '| assertion | before (passes of draws) | after (passes of draws) |',
    '| --- | ---: | ---: |',
    ...c.evidence.map(
      (e) =>
        `| ${assertionLabel(m, e.assertionId).replace(/\|/g, '&#124;')} | ${kOfN(e.before)} | ${kOfN(e.after)} |`,
    ),
  ];
}

/** The day an earlier night drew the baseline's stored trials: `2026-12-06`. */
function storedDay(stored: StoredTrials): string {
  return stored.drawnAt.slice(0, 10);
}

/** `2 of them drawn on an earlier night (2026-12-06)`: of the baseline's trials a line counts. */
function ofThemEarlier(stored: StoredTrials): string {
  return `${stored.draws} of them drawn on an earlier night (${storedDay(stored)})`;
}

/** `1 fresh trial`, `3 fresh trials`. */
function trials(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** `trial 2`, `trials 2 and 3`, `trials 1, 4 and 5`. */
function trialNumbers(numbers: readonly number[]): string {
  if (numbers.length === 1) return `trial ${numbers[0]}`;
  return `trials ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/**
 * `; trial 1 was drawn tonight, trials 2 and 3 on an earlier night (2026-12-06) …` when an earlier
 * night's draws of the same text stand in for some of the baseline's trials (docs/how-it-works.md
 * § Baseline): trial 1 is always drawn tonight, then the stored ones, then any drawn tonight after them.
 */
function storedTrialsNote(n: NoiseReport, s: StoredTrials | undefined): string {
  if (!s) return '';
  const all = Array.from({ length: n.trials }, (_, i) => i + 1);
  const earlier = all.filter((t) => t >= 2 && t <= s.draws + 1);
  const tonight = all.filter((t) => !earlier.includes(t));
  return (
    `; ${trialNumbers(tonight)} ${tonight.length === 1 ? 'was' : 'were'} drawn tonight, ` +
    `${trialNumbers(earlier)} on an earlier night (${storedDay(s)}) and reused: the SKILL.md, evals, ` +
    'prompts, models and model endpoints are unchanged since'
  );
}

/**
 * "Improvements under +0.04 cannot be told from noise at this grader's 22 % flip rate …": what the
 * night's own draws allow (docs/how-it-works.md § Decisions under noise); undefined when nothing was
 * measured twice. When some of the baseline's draws are an earlier night's, it says so.
 */
export function noiseFloorLine(
  m: Pick<SkillMeasurement, 'noiseFloor' | 'findings' | 'baselineStored'>,
): string | undefined {
  const f = m.noiseFloor;
  if (!f) return undefined;
  const flaky = m.findings.filter((x) => x.kind === 'flaky').length;
  const stored = m.baselineStored;
  const earlier = stored ? `, ${ofThemEarlier(stored)}` : '';
  return (
    `Noise floor: improvements under ${formatGain(f.minimumDetectableGain)} cannot be told from noise at this ` +
    `grader's ${(f.flipRate * 100).toFixed(0)} % flip rate on identical texts (${f.comparisons} pairs of ` +
    `draws of the same check compared; ${f.draws} fresh draws against the baseline's ${f.baselineDraws}` +
    `${earlier}); ` +
    (flaky > 0
      ? `raise \`trials\` or fix the ${flaky} flaky assertion${flaky === 1 ? '' : 's'} listed below`
      : 'raise `trials` to see smaller gains')
  );
}

/** The bullet lines (and the evidence table) of one skill's measurement. */
export function measurementLines(m: SkillMeasurement): string[] {
  const lines: string[] = [];
  if (m.noise) {
    const n = m.noise;
    lines.push(
      n.probe
        ? `- Baseline: a second trial of ${n.probe.scenarios} of its ${n.probe.of} scenarios gave every ` +
            'check the verdict of the first, so the spread (sd) is 0.0000 and no further trial was drawn'
        : `- Baseline: ${n.trials} independent trials, composite mean ${n.mean.toFixed(4)}, spread (sd) ` +
            // The sd is each scenario's spread summed (spread.ts), so trials that tie can still show one.
            `${n.sd.toFixed(4)}, measured scenario by scenario (trials: ${n.scores.map((s) => s.toFixed(4)).join(', ')})` +
            storedTrialsNote(n, m.baselineStored),
    );
    lines.push(
      n.flipping.length === 0
        ? `- Verdicts that changed between the baseline's trials: none`
        : `- Verdicts that changed between the baseline's trials: ${n.flipping
            .map(
              (t) =>
                `${assertionLabel(m, t.assertionId)} on ${t.flippedPairs} of ${t.repeatedPairs} scenarios`,
            )
            .join('; ')}`,
    );
  }
  const floor = noiseFloorLine(m);
  if (floor) lines.push(`- ${floor}`);
  if (m.keepRule === 'original') lines.push('- Keep rule: original (any gain keeps; no confirmation)');
  if (m.confirmationFailure !== undefined) {
    lines.push(`- Confirmation: not available (${inertInline(m.confirmationFailure, 300)})`);
  }
  if (m.confirmationSkipped !== undefined) {
    lines.push(`- Confirmation: skipped: ${m.confirmationSkipped}`);
  }
  const c = m.confirmation;
  if (c) {
    // "Confirmed" only for a gain that cleared the margin; a confirmation that did not says what it measured.
    const cleared = compareScores(c.gain, c.needed) > 0;
    lines.push(
      `- ${cleared ? 'Confirmed gain:' : 'Confirmation: a gain of'} ${formatGain(c.gain)} ` +
        `(90 % interval ${formatGain(c.low)} to ${formatGain(c.high)}), ` +
        `baseline ${c.baseline.toFixed(4)} -> final ${c.final.toFixed(4)} over ` +
        (c.reusedBaseline
          ? `${trials(c.trials, 'fresh trial')} of the final text and the baseline's ` +
            `${trials(c.baselineScores.length, 'trial')} from before the loop (reused: no selection chose them` +
            (m.baselineStored ? `; ${ofThemEarlier(m.baselineStored)})` : ')')
          : c.baselineScores.length === c.trials
            ? `${trials(c.trials, 'fresh trial')} of each text`
            : // A close call draws the final text past `trials`; the baseline's fresh draws stop there.
              `${trials(c.trials, 'fresh trial')} of the final text and ${c.baselineScores.length} of the baseline`) +
        (cleared
          ? `; margin to clear ${c.needed.toFixed(4)}`
          : `; it does not clear the margin ${c.needed.toFixed(4)}`),
    );
    if (c.holdout) {
      lines.push(
        `- Holdout scenarios (never shown to the editor): ${kOfN(c.holdout.before)} -> ${kOfN(c.holdout.after)} passing checks`,
      );
    }
  }
  if (m.uplift) {
    const u = m.uplift;
    lines.push(
      `- Uplift: pass rate with the skill ${percent(u.with)} (${kOfN(u.with)}) minus without it ` +
        `${percent(u.without)} (${kOfN(u.without)}) = ${u.uplift >= 0 ? '+' : ''}${(u.uplift * 100).toFixed(2)} points` +
        (u.measurable ? '' : ' (not measurable: within the noise)') +
        (u.withoutDrawnAt === undefined
          ? ''
          : `; the side without the skill was drawn on an earlier night (${u.withoutDrawnAt.slice(0, 10)}) ` +
            'and reused: the evals, prompts, models and model endpoints are unchanged since'),
    );
  }
  if (m.findings.length > 0) {
    lines.push('- Eval findings (fix the eval, not the skill):');
    for (const f of m.findings)
      lines.push(`  - ${assertionLabel(m, f.assertionId)}: ${f.kind} (${f.evidence})`);
  }
  if (c) lines.push('', ...evidenceTable(m));
  return lines;
}

/** The morning summary's section: one block per skill that was measured, and the skills without uplift. */
export function measurementSection(results: readonly SkillResult[]): string[] {
  const measured = results.filter(
    (r): r is SkillResult & { measurement: SkillMeasurement } =>
      r.measurement !== undefined &&
      (measurementLines(r.measurement).length > 0 || r.measurement.feedback !== undefined),
  );
  if (measured.length === 0) return [];
  const lines = ['## Noise, confirmation and eval quality', ''];
  const flat = measured.filter((r) => r.measurement.uplift && !r.measurement.uplift.measurable);
  if (flat.length > 0) {
    lines.push(
      `No measurable uplift (the skill's instructions did not raise the pass rate beyond the noise): ` +
        `${flat.map((r) => inertInline(r.skill, 100)).join(', ')}`,
      '',
    );
  }
  for (const r of measured) {
    lines.push(`### ${inertInline(r.skill, 100)}`, '', ...measurementLines(r.measurement), '');
    const feedback = r.measurement.feedback;
    if (feedback) lines.push('#### Review findings', '', ...feedbackEvidenceLines(feedback));
  }
  return lines;
}
