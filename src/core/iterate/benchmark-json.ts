/**
 * A skillclimb score as skill-creator's `benchmark.json` (`skillclimb score --benchmark-json`,
 * docs/cli.md § skillclimb score), so skill-creator's eval viewer shows it: one run per eval (scenario) and
 * configuration — `with_skill` renders with the SKILL.md, `without_skill` with no instructions — each with
 * its pass rate, time, tokens and graded expectations; per configuration the mean, sample standard
 * deviation, minimum and maximum; and the delta as signed strings (`"+0.50"`). The field names are
 * skill-creator's exactly (its viewer reads them by name). Pure: the command writes the file.
 */
import type { Scenario, SkillEvals } from './evals.js';
import type { PairVerdict } from './noise.js';
import { totalTokens, type Usage } from '../usage.js';

export type BenchmarkConfiguration = 'with_skill' | 'without_skill';

/** One configuration's score: its decided pairs and what each scenario's calls cost. */
export interface BenchmarkSide {
  pairs: readonly PairVerdict[];
  perScenario?: ReadonlyMap<string, { usage: Usage; seconds: number | undefined }> | undefined;
}

export interface BenchmarkInput {
  skillName: string;
  skillPath: string;
  /** The render model (skill-creator's executor) and the grader model (its analyzer). */
  executorModel: string;
  analyzerModel: string;
  timestamp: Date;
  evals: SkillEvals;
  withSkill: BenchmarkSide;
  withoutSkill: BenchmarkSide;
  notes: string[];
}

interface Stat {
  mean: number;
  stddev: number;
  min: number;
  max: number;
}

const round = (n: number, places: number): number => {
  const scale = 10 ** places;
  return Math.round(n * scale) / scale;
};

/** Mean, sample standard deviation (n − 1; 0 for one value), min and max, to 4 places. */
export function benchmarkStat(values: readonly number[]): Stat {
  if (values.length === 0) return { mean: 0, stddev: 0, min: 0, max: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance =
    values.length > 1 ? values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1) : 0;
  return {
    mean: round(mean, 4),
    stddev: round(Math.sqrt(variance), 4),
    min: round(Math.min(...values), 4),
    max: round(Math.max(...values), 4),
  };
}

/** `+0.50`, `-0.25`, `+13.0`: a difference as skill-creator writes it. */
function signed(n: number, places: number): string {
  const text = n.toFixed(places);
  return text.startsWith('-') ? text : `+${text}`;
}

/** Skill-creator's ids are numbers: an Agent Skills eval keeps its own; the original's scenarios count 1, 2, … */
function evalIds(scenarios: readonly Scenario[]): number[] {
  const own = scenarios.map((s) => (/^\d+$/.test(s.id) ? Number(s.id) : NaN));
  return own.every((n) => Number.isSafeInteger(n)) && new Set(own).size === own.length
    ? own
    : scenarios.map((_, i) => i + 1);
}

function evalName(scenario: Scenario): string {
  if (scenario.name !== undefined && scenario.name.trim() !== '') return scenario.name;
  const first = scenario.context.trim().split('\n')[0] ?? '';
  return `${scenario.id}: ${first.length > 60 ? `${first.slice(0, 59)}…` : first}`;
}

/** The ISO time to the second, as skill-creator stamps it: `2026-01-15T10:30:00Z`. */
function stamp(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}

export function buildBenchmarkJson(input: BenchmarkInput): Record<string, unknown> {
  const statements = new Map(
    input.evals.evals.categories.flatMap((c) => c.evals.map((a) => [a.id, a.statement] as const)),
  );
  const scenarios = input.evals.scenarios;
  const ids = evalIds(scenarios);
  const runs: Array<Record<string, unknown>> = [];
  const perConfig: Record<BenchmarkConfiguration, { rate: number[]; time: number[]; tokens: number[] }> = {
    with_skill: { rate: [], time: [], tokens: [] },
    without_skill: { rate: [], time: [], tokens: [] },
  };
  const sides: Array<[BenchmarkConfiguration, BenchmarkSide]> = [
    ['with_skill', input.withSkill],
    ['without_skill', input.withoutSkill],
  ];
  const evalsRun = new Set<number>();
  for (const [configuration, side] of sides) {
    scenarios.forEach((scenario, i) => {
      const pairs = side.pairs
        .filter((p) => p.scenarioId === scenario.id)
        .sort((a, b) => a.assertionId - b.assertionId);
      // A scenario with no graded pair (every assertion vacuous in it) has no pass rate to show.
      if (pairs.length === 0) return;
      const passed = pairs.filter((p) => p.pass).length;
      const cost = side.perScenario?.get(scenario.id);
      const result = {
        pass_rate: round(passed / pairs.length, 4),
        passed,
        failed: pairs.length - passed,
        total: pairs.length,
        time_seconds: round(cost?.seconds ?? 0, 3),
        tokens: cost ? totalTokens(cost.usage) : 0,
        tool_calls: 0,
        errors: 0,
      };
      evalsRun.add(ids[i]!);
      perConfig[configuration].rate.push(result.pass_rate);
      perConfig[configuration].time.push(result.time_seconds);
      perConfig[configuration].tokens.push(result.tokens);
      runs.push({
        eval_id: ids[i],
        eval_name: evalName(scenario),
        configuration,
        run_number: 1,
        result,
        expectations: pairs.map((p) => ({
          text: statements.get(p.assertionId) ?? `assertion ${p.assertionId}`,
          passed: p.pass,
          evidence: p.reason ?? '',
        })),
        notes: [],
      });
    });
  }
  const summary = (c: BenchmarkConfiguration) => ({
    pass_rate: benchmarkStat(perConfig[c].rate),
    time_seconds: benchmarkStat(perConfig[c].time),
    tokens: benchmarkStat(perConfig[c].tokens),
  });
  const withSkill = summary('with_skill');
  const withoutSkill = summary('without_skill');
  return {
    metadata: {
      skill_name: input.skillName,
      skill_path: input.skillPath,
      executor_model: input.executorModel,
      analyzer_model: input.analyzerModel,
      timestamp: stamp(input.timestamp),
      evals_run: [...evalsRun].sort((a, b) => a - b),
      runs_per_configuration: 1,
    },
    runs,
    run_summary: {
      with_skill: withSkill,
      without_skill: withoutSkill,
      delta: {
        pass_rate: signed(withSkill.pass_rate.mean - withoutSkill.pass_rate.mean, 2),
        time_seconds: signed(withSkill.time_seconds.mean - withoutSkill.time_seconds.mean, 1),
        tokens: signed(withSkill.tokens.mean - withoutSkill.tokens.mean, 0),
      },
    },
    notes: input.notes,
  };
}
