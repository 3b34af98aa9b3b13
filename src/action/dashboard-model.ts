/**
 * What the dashboard shows (docs/how-it-works.md § The dashboard issue), pure: tonight's result file for
 * the skills that ran, the state branch's records (results.tsv, last-run.json) for the others and for the
 * trend over the recent nights, and the orders the night read.
 */
import { nightNoiseLine, nightPriceLine } from '../core/iterate/night-price.js';
import { nightBudgetLine } from '../core/iterate/night-budget.js';
import { parseResultsTsv } from '../core/iterate/results-tsv.js';
import type { FindingKind } from '../core/iterate/noise.js';
import type { ResultsRow, SkillResult } from '../core/iterate/run-result.js';
import { totalTokens } from '../core/usage.js';
import type { LastRunRecord } from '../github/action/state-files.js';
import type { DashboardInput, DashboardSkill, DashboardStatus, OrderState } from './dashboard-body.js';
import type { RunFile } from './result-file.js';

/** Nights shown in a trend. */
const TREND_NIGHTS = 10;
/** Nights without a gain that make a plateau. */
const PLATEAU_NIGHTS = 3;
/** What the next night's plan assumes: a daily schedule. */
export const NEXT_NIGHT_HOURS = 24;

export interface RecordedSkill {
  resultsTsv: string | undefined;
  lastRun: LastRunRecord | undefined;
}

export interface DashboardFacts {
  file: RunFile;
  /** The state branch per skill, as read (or as this night saved it). */
  recorded: ReadonlyMap<string, RecordedSkill>;
  /** The boxes to write ticked: the standing skips in force tonight, and orders not honoured yet. */
  ticked: OrderState;
  orderNotes: readonly string[];
  freshnessWindowMs: number;
  minGain: number;
  now: Date;
  runUrl: string | undefined;
  /** Each rule of the Agent Skills specification a skill's SKILL.md breaks, `<file>: <field>: <detail>`. */
  specViolations?: readonly string[] | undefined;
}

/** The final composite of each night in a results.tsv: a night starts at its baseline row. */
export function nightlyFinals(rows: readonly ResultsRow[]): number[] {
  const finals: number[] = [];
  let current: number | null | undefined;
  for (const row of rows) {
    if (row.status === 'baseline') {
      if (current != null) finals.push(current);
      current = row.score;
    } else if (row.status === 'keep' && row.score !== null) {
      current = row.score;
    }
  }
  if (current != null) finals.push(current);
  return finals;
}

function trendOf(recorded: RecordedSkill | undefined): number[] {
  if (!recorded?.resultsTsv) return [];
  try {
    return nightlyFinals(parseResultsTsv(recorded.resultsTsv)).slice(-TREND_NIGHTS);
  } catch {
    return [];
  }
}

function groupFindings(findings: ReadonlyArray<{ kind: FindingKind; assertion: number }>) {
  const byKind = new Map<FindingKind, number[]>();
  for (const f of findings) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f.assertion]);
  return [...byKind].map(([kind, assertions]) => ({
    kind,
    assertions: [...new Set(assertions)].sort((a, b) => a - b),
  }));
}

function isPlateau(trend: readonly number[], minGain: number): boolean {
  if (trend.length < PLATEAU_NIGHTS) return false;
  const last = trend.slice(-PLATEAU_NIGHTS);
  return Math.max(...last) - Math.min(...last) < minGain;
}

function resultStatus(facts: DashboardFacts, r: SkillResult, trend: readonly number[]): DashboardStatus {
  const { file } = facts;
  const shipped = file.shipped.find((s) => s.skill === r.skill);
  if (shipped)
    return { kind: 'shipped', pr: shipped.pr, url: shipped.url, gain: shipped.final - shipped.baseline };
  const notShipped = file.notShipped.find((s) => s.skill === r.skill);
  if (notShipped) return { kind: 'not-shipped', reason: notShipped.reason };
  if (r.status === 'defect-park' || r.status === 'calibration-park') {
    const park = file.parked.find((p) => p.skill === r.skill);
    const url =
      park?.via === 'issue' ? park.location : /^https?:\/\//.test(r.link ?? '') ? r.link : undefined;
    return { kind: 'parked', parkKind: r.status === 'defect-park' ? 'crashes' : 'calibration', url };
  }
  if (r.status === 'no-improvement') {
    return isPlateau(trend, facts.minGain)
      ? { kind: 'plateau', nights: PLATEAU_NIGHTS }
      : { kind: 'no-improvement', detail: r.detail };
  }
  if (r.status === 'shipped') return { kind: 'not-shipped', reason: 'no pull request was recorded' };
  return { kind: 'skipped', detail: r.status };
}

/** Every skill the night knows of: queued, run, excluded for any reason, or not asked for. */
export function skillNames(file: RunFile, skipOrders: readonly string[]): string[] {
  const run = file.run;
  return [
    ...new Set([
      ...run.queue,
      ...run.results.map((r) => r.skill),
      ...run.excludedBySkipList.map((e) => e.skill),
      ...run.excludedByFreshness.map((e) => e.skill),
      ...(run.excludedOther ?? []).map((e) => e.skill),
      ...(run.notRequested ?? []),
      ...skipOrders.filter((s) => run.excludedBySkipList.some((e) => e.skill === s)),
    ]),
  ].sort();
}

function skillRow(facts: DashboardFacts, skill: string): DashboardSkill {
  const run = facts.file.run;
  const recorded = facts.recorded.get(skill);
  const last = recorded?.lastRun;
  const trend = trendOf(recorded);
  const result = run.results.find((r) => r.skill === skill);
  const m = result?.measurement;
  const base = {
    skill,
    trend,
    composite:
      m?.confirmation?.final ?? result?.finalScore ?? last?.confirmed_score ?? last?.final_score ?? null,
    confirmed: m?.confirmation !== undefined || (!result && typeof last?.confirmed_score === 'number'),
    uplift: m?.uplift
      ? { value: m.uplift.uplift, measurable: m.uplift.measurable }
      : result
        ? undefined
        : last?.uplift,
    findings: groupFindings(
      m
        ? m.findings.map((f) => ({ kind: f.kind, assertion: f.assertionId }))
        : result
          ? []
          : (last?.findings ?? []),
    ),
  };
  if (result) return { ...base, status: resultStatus(facts, result, trend) };
  const skipped = run.excludedBySkipList.find((e) => e.skill === skill);
  if (skipped) {
    return {
      ...base,
      status: facts.ticked.skip.includes(skill)
        ? { kind: 'skipped-by-order' }
        : { kind: 'excluded', reason: `skip-list (${skipped.source})` },
    };
  }
  const other = (run.excludedOther ?? []).find((e) => e.skill === skill);
  if (other) return { ...base, status: { kind: 'excluded', reason: other.reason, next: other.next } };
  const fresh = run.excludedByFreshness.find((e) => e.skill === skill);
  if (fresh) {
    return {
      ...base,
      status: { kind: 'fresh', until: new Date(fresh.lastRunAt.getTime() + facts.freshnessWindowMs) },
    };
  }
  const lastRunAt = last ? new Date(last.last_run_at) : undefined;
  if (lastRunAt && facts.now.getTime() - lastRunAt.getTime() < facts.freshnessWindowMs) {
    return {
      ...base,
      status: { kind: 'fresh', until: new Date(lastRunAt.getTime() + facts.freshnessWindowMs) },
    };
  }
  return { ...base, status: { kind: 'not-run' } };
}

/**
 * Scorable skills whose last run will be older than the window when the next night starts; the skills the
 * night budget kept from starting first, as the next night queues them (docs/how-it-works.md § Caps and budgets).
 */
function dueNextNight(facts: DashboardFacts, skills: readonly DashboardSkill[]): string[] {
  const run = facts.file.run;
  const first = run.nightBudget?.notStarted ?? [];
  return [...first, ...dueByFreshness(facts, skills).filter((skill) => !first.includes(skill))];
}

function dueByFreshness(facts: DashboardFacts, skills: readonly DashboardSkill[]): string[] {
  const run = facts.file.run;
  const nextStart = run.startedAt.getTime() + NEXT_NIGHT_HOURS * 3_600_000;
  return skills
    .filter((s) => s.status.kind !== 'excluded' && s.status.kind !== 'skipped-by-order')
    .filter((s) => {
      const ranTonight = run.results.some((r) => r.skill === s.skill && r.rows.length > 0);
      const fresh = run.excludedByFreshness.find((e) => e.skill === s.skill)?.lastRunAt;
      const recorded = facts.recorded.get(s.skill)?.lastRun?.last_run_at;
      const lastRunAt = ranTonight
        ? run.endedAt.getTime()
        : (fresh?.getTime() ?? (recorded ? Date.parse(recorded) : NaN));
      return Number.isNaN(lastRunAt) || nextStart - lastRunAt >= facts.freshnessWindowMs;
    })
    .map((s) => s.skill);
}

/** The noise floor and the price lines, when the night ran a skill. */
function nightEconomicsLines(run: DashboardFacts['file']['run']): string[] | undefined {
  if (run.results.length === 0) return undefined;
  const noise = nightNoiseLine(run.results);
  return [...(noise ? [noise] : []), nightPriceLine(run.results, run.usage)];
}

export function dashboardInput(facts: DashboardFacts): DashboardInput {
  const { run } = facts.file;
  const skills = skillNames(facts.file, facts.ticked.skip).map((skill) => skillRow(facts, skill));
  return {
    generatedAt: facts.now,
    runUrl: facts.runUrl,
    skills,
    totals: {
      ran: run.results.filter((r) => r.rows.length > 0).length,
      shipped: facts.file.shipped.length,
      parked: facts.file.parked.length,
      calls: run.usage.calls,
      tokens: totalTokens(run.usage),
      costUsd: run.usage.costUsd,
      partial: run.partial?.reason,
      economics: nightEconomicsLines(run),
    },
    nextNight: {
      due: dueNextNight(facts, skills),
      assumedHours: NEXT_NIGHT_HOURS,
      ...(run.nightBudget ? { budget: nightBudgetLine(run.nightBudget) } : {}),
    },
    ticked: facts.ticked,
    orderNotes: [...facts.orderNotes],
    specViolations: [...(facts.specViolations ?? [])],
  };
}
