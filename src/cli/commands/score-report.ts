/**
 * What `skillclimb score <skill-folder>` prints (docs/cli.md § score): the report, or the `--json`
 * document, with the specification's violations, the substance line, the noise line and `--uplift`.
 */
import { METRIC_NAMES } from '../../core/iterate/score-types.js';
import { specViolations } from '../../core/iterate/skill-spec.js';
import type { UpliftReport } from '../../core/iterate/noise.js';
import { minimumDetectableGain } from '../../core/iterate/sequential.js';
import type { SkillModels } from '../../ports/models.js';
import type { SkillScore } from '../../iterate/score.js';
import type { ScoredFolder } from '../../iterate/score-folder.js';
import type { CliIo } from '../io.js';
import { specJson, specReport, substanceLine } from './score-spec.js';

/** The `--json` document: the issue's shape plus `status` and `mode`. */
function scoreJson(result: SkillScore): Record<string, unknown> {
  return {
    score: result.score,
    status: result.status,
    mode: result.mode,
    structural: {
      score: result.structural.score,
      metrics: result.structural.metrics,
      ...(result.structural.substance ? { substance: result.structural.substance } : {}),
    },
    absolute: result.absolute
      ? {
          weighted_score: result.absolute.weighted_score,
          passed: result.absolute.passed,
          total: result.absolute.total,
          failed_assertions: result.absolute.failed_assertions,
          passing_pairs: result.absolute.passing_pairs,
        }
      : null,
  };
}

function upliftJson(u: UpliftReport): Record<string, unknown> {
  return {
    with: u.with,
    without: u.without,
    uplift: u.uplift,
    per_assertion: u.perAssertion.map((a) => ({
      assertion_id: a.assertionId,
      with: a.with,
      without: a.without,
    })),
  };
}

/** The `--uplift` lines: one draw of each, so the figure carries no interval and says so. */
function formatUplift(u: UpliftReport | undefined, detail: string | undefined): string {
  if (!u) return `uplift: not measured (the render without the skill failed: ${detail ?? 'no score'})\n`;
  const pct = (c: { passes: number; total: number }) =>
    `${c.total === 0 ? '0.0' : ((c.passes / c.total) * 100).toFixed(1)} % (${c.passes} of ${c.total})`;
  const points = `${u.uplift >= 0 ? '+' : ''}${(u.uplift * 100).toFixed(2)}`;
  const lines = [
    `uplift: ${points} points -- pass rate with the skill ${pct(u.with)} minus without it ${pct(u.without)}`,
    '  one draw each: a difference of a check or two can be noise; `iterate` measures the spread with --trials',
  ];
  for (const a of u.perAssertion) {
    lines.push(
      `  #${a.assertionId}: with ${a.with.passes} of ${a.with.total}, without ${a.without.passes} of ${a.without.total}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function fixed(n: number | null): string {
  return n === null ? 'NULL' : n.toFixed(6);
}

function detailValue(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(4);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length > 0) return value.map((v) => String(v)).join(',');
  return undefined;
}

/** The counts behind a metric's score (`present=2 required=3 missing=Limitations`), empty lists left out. */
function metricDetail(metric: Record<string, unknown>): string {
  return Object.entries(metric)
    .filter(([key]) => key !== 'score')
    .map(([key, value]) => [key, detailValue(value)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
}

/**
 * `score --trials N` (issue 28 item 3): the grader's flip rate on identical inputs (N trials of the same
 * renders) and the smallest graded-score gain a comparison with N independent draws per side could tell
 * from it at margin 1. A verdict that flips with probability q makes two trials disagree 2q(1 − q) of the
 * time, so one verdict's variance q(1 − q) is half the flip rate; the graded score is a mean over `pairs`
 * verdicts (equal weights assumed). Re-grades share their render, so render-to-render variation is not in
 * this figure: `iterate` measures both with independent draws.
 */
function scoreNoiseLine(
  agreement: { comparisons: number; disagreements: number } | undefined,
  pairs: number,
  trials: number,
): string | undefined {
  if (!agreement || agreement.comparisons === 0 || pairs === 0) return undefined;
  const flip = agreement.disagreements / agreement.comparisons;
  const sd = Math.sqrt(flip / 2 / pairs);
  const floor = minimumDetectableGain({ sd, draws: trials, stateDraws: trials, margin: 1, minGain: 0 });
  return (
    `noise: the grader's verdicts flipped on ${(flip * 100).toFixed(0)} % of ${agreement.comparisons} pairs of ` +
    `trials on the same renders; improvements in the graded score under +${floor.toFixed(4)} cannot be told ` +
    `from this noise with ${trials} draws per side; raise --trials or fix the flaky assertions ` +
    '(`skillclimb iterate` lists them)'
  );
}

/** What `--trials N` did: grades of each render and their majority vote, or nothing (structure is exact). */
function trialsNote(result: SkillScore): string {
  if (result.trials <= 1) return '';
  if (result.mode === 'structural')
    return ` (--trials ${result.trials} draws nothing more: structure is scored exactly)`;
  return ` (${result.trials} trials, majority vote)`;
}

function formatScoreReport(skill: string, models: SkillModels, result: SkillScore): string {
  const out: string[] = [];
  out.push(`skill: ${skill}`);
  out.push(`models: ${models.label}`);
  if (models.structuralOnly)
    out.push('offline provider: graded structure only (pass --model for absolute grading)');
  out.push(`mode: ${result.mode}${trialsNote(result)}`);
  out.push(`status: ${result.status}${result.detail ? ` (${result.detail})` : ''}`);
  out.push(`score: ${fixed(result.score)}`);
  out.push('');
  out.push(`structural ${fixed(result.structural.score)}`);
  const width = Math.max(...METRIC_NAMES.map((n) => n.length));
  for (const name of METRIC_NAMES) {
    const metric = result.structural.metrics[name];
    const detail = metricDetail(metric);
    out.push(`  ${name.padEnd(width)}  ${fixed(metric.score)}${detail ? `  ${detail}` : ''}`);
  }
  const substance = substanceLine(result.structural);
  if (substance !== undefined) out.push(substance);
  const absolute = result.absolute;
  const noise = absolute ? scoreNoiseLine(result.gradeAgreement, absolute.total, result.trials) : undefined;
  if (noise) out.push(noise);
  if (absolute) {
    out.push('');
    out.push(`absolute ${fixed(absolute.weighted_score)}  (${absolute.passed}/${absolute.total} pairs pass)`);
    for (const c of absolute.categories) {
      out.push(`  ${c.name} (weight ${c.weight}): ${c.passed}/${c.total}  ${fixed(c.score)}`);
    }
    if (absolute.failed_assertions.length > 0) {
      out.push('  failed assertions:');
      for (const f of absolute.failed_assertions) {
        out.push(
          `    #${f.assertion_id} ${f.scenario_id} [${f.category_name}, ${f.defect_type}] ${f.statement}`,
        );
        if (f.grader_reason) out.push(`      reason: ${f.grader_reason}`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

/** Prints one scored folder (the report or `--json`) and sets the exit code: 1 when the score is not ok. */
export function reportScore(
  io: CliIo,
  flags: { json: boolean; uplift: boolean },
  scored: ScoredFolder,
  specFile: string,
): void {
  const { skill, models, result, uplift, skillMd } = scored;
  const violations = specViolations(skillMd, skill);
  if (flags.json) {
    const doc = scoreJson(result);
    doc.specification = specJson(specFile, violations);
    if (uplift) doc.uplift = uplift.report ? upliftJson(uplift.report) : { error: uplift.detail };
    io.out(`${JSON.stringify(doc, null, 2)}\n`);
  } else {
    io.out(formatScoreReport(skill, models, result));
    io.out(specReport(specFile, violations));
    if (flags.uplift && result.absolute === null && result.status === 'ok') {
      io.out('\nuplift: not measured (structure-only scoring renders nothing)\n');
    } else if (uplift) io.out(`\n${formatUplift(uplift.report, uplift.detail)}`);
  }
  if (result.status !== 'ok') {
    if (flags.json) io.err(`skillclimb score: ${result.status}: ${result.detail ?? ''}\n`);
    io.exitCode = 1;
  } else {
    io.exitCode = 0;
  }
}
