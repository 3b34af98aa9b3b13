/** What `skillclimb score <skill-folder>` prints: the report, the `--json` document, the `--uplift` lines. */
import type { UpliftReport } from '../../core/iterate/noise.js';
import { METRIC_NAMES } from '../../core/iterate/score-types.js';
import type { SkillScore } from '../../iterate/score.js';
import type { SkillModels } from '../../ports/models.js';

/** The `--json` document: the issue's shape plus `status` and `mode`. */
export function scoreJson(result: SkillScore): Record<string, unknown> {
  return {
    score: result.score,
    status: result.status,
    mode: result.mode,
    structural: { score: result.structural.score, metrics: result.structural.metrics },
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

export function upliftJson(u: UpliftReport): Record<string, unknown> {
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
export function formatUplift(u: UpliftReport | undefined, detail: string | undefined): string {
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

export function formatScoreReport(skill: string, models: SkillModels, result: SkillScore): string {
  const out: string[] = [];
  out.push(`skill: ${skill}`);
  out.push(`models: ${models.label}`);
  if (models.structuralOnly)
    out.push('offline provider: graded structure only (pass --model for absolute grading)');
  out.push(`mode: ${result.mode}${result.trials > 1 ? ` (${result.trials} trials, majority vote)` : ''}`);
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
  const absolute = result.absolute;
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
