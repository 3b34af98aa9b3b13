/**
 * The reviewer skill's evidence (docs/how-it-works.md § The nightly engine improves the reviewer): the
 * evals written from a team's answers to review findings (`skillclimb.feedback`) are graded like every
 * other eval; this file only reads their pass counts back per finding — which dismissed findings the
 * changed skill stops raising, which accepted findings it still catches, and the ones it still raises or
 * misses — as Markdown for the skill's pull request and the morning summary. Pure.
 */
import type { Scenario } from './evals.js';
import { passRate, type EvidenceRow, type PassCount } from './noise.js';
import type { AbsoluteResult } from './score-types.js';
import type { FeedbackKind } from '../reviewer-skill.js';
import { inertInline } from '../text/untrusted-text.js';

/** One finding a feedback eval was written from, with its eval's pass counts on the two texts. */
export interface FeedbackFinding {
  kind: FeedbackKind;
  title: string;
  file?: string | undefined;
  pr: number;
  evalId: string;
  holdout: boolean;
  /** Passes of the eval's assertion draws: a pass is "not raised" for a dismissed finding, "raised" for an accepted one. */
  before: PassCount;
  after: PassCount;
}

export interface FeedbackEvidence {
  /**
   * `confirmation`: the ship gate's fresh draws of both texts side by side (the holdout included);
   * `loop`: the loop's own score of each text, one draw each, when no confirmation ran.
   */
  source: 'confirmation' | 'loop';
  findings: FeedbackFinding[];
}

/** The findings of the scenarios that carry `feedback`, with the counts of their assertions; undefined when none does. */
export function feedbackEvidence(
  scenarios: readonly Scenario[],
  source: FeedbackEvidence['source'],
  counts: readonly EvidenceRow[],
): FeedbackEvidence | undefined {
  const byId = new Map(counts.map((row) => [row.assertionId, row]));
  const findings: FeedbackFinding[] = [];
  for (const scenario of scenarios) {
    const feedback = scenario.feedback;
    if (!feedback) continue;
    const before = { passes: 0, total: 0 };
    const after = { passes: 0, total: 0 };
    for (const id of scenario.expected_assertions ?? []) {
      const row = byId.get(id);
      if (!row) continue;
      before.passes += row.before.passes;
      before.total += row.before.total;
      after.passes += row.after.passes;
      after.total += row.after.total;
    }
    findings.push({
      kind: feedback.kind,
      title: feedback.title,
      ...(feedback.file === undefined ? {} : { file: feedback.file }),
      pr: feedback.pr,
      evalId: scenario.id,
      holdout: scenario.holdout === true,
      before,
      after,
    });
  }
  return findings.length === 0 ? undefined : { source, findings };
}

/** Each assertion's pass counts in one draw of each text (the loop's scores): passing pairs pass, failed ones fail. */
export function absoluteCountRows(before: AbsoluteResult, after: AbsoluteResult): EvidenceRow[] {
  const tally = (a: AbsoluteResult): Map<number, PassCount> => {
    const counts = new Map<number, PassCount>();
    const add = (id: number, pass: boolean) => {
      const c = counts.get(id) ?? { passes: 0, total: 0 };
      counts.set(id, { passes: c.passes + (pass ? 1 : 0), total: c.total + 1 });
    };
    for (const p of a.passing_pairs) add(p.assertion_id, true);
    for (const f of a.failed_assertions) add(f.assertion_id, false);
    return counts;
  };
  const b = tally(before);
  const f = tally(after);
  const zero: PassCount = { passes: 0, total: 0 };
  return [...new Set([...b.keys(), ...f.keys()])]
    .sort((x, y) => x - y)
    .map((id) => ({ assertionId: id, before: b.get(id) ?? zero, after: f.get(id) ?? zero }));
}

/**
 * The accepted findings as a guard (docs/how-it-works.md § The nightly engine improves the reviewer): a
 * change that makes the skill catch the team's accepted findings less often is not progress, whatever it
 * gains on the rest — a reviewer that stops raising false findings by missing real defects is worse. Like
 * the holdout rule, the accepted findings' evals are pooled (their assertions' passes of draws) and their
 * pass rate may not drop: pooled, because one eval's verdict flips with the grader's noise, and the rule
 * would otherwise refuse most good changes of a skill with many accepted findings. Returns the sentence
 * that says why the change does not ship, or undefined when it holds.
 */
export function acceptedFindingsLost(
  evidence: FeedbackEvidence | undefined,
  recheck?: { lost: readonly string[] },
): string | undefined {
  const accepted = (evidence?.findings ?? []).filter((f) => f.kind === 'accepted' && f.after.total > 0);
  const before = pooled(accepted.map((f) => f.before));
  const after = pooled(accepted.map((f) => f.after));
  if (before.total === 0 || after.total === 0 || passRate(after) >= passRate(before)) return undefined;
  // Drawn again (the confirmation's re-measure): blocked only by the findings missed again.
  if (recheck !== undefined && recheck.lost.length === 0) return undefined;
  const worse = acceptedFindingsWorse(evidence);
  const named = worse
    .slice(0, MAX_LISTED)
    .map((f) => inertInline(f.title, 120))
    .join(', ');
  const more = worse.length > MAX_LISTED ? ` and ${worse.length - MAX_LISTED} more` : '';
  const again =
    recheck === undefined ? '' : `, and misses them again when re-measured: ${recheck.lost.join(', ')}`;
  return (
    `it catches the team's accepted findings less often: ${before.passes} of ${before.total} → ` +
    `${after.passes} of ${after.total} passing draws (${named}${more})${again}`
  );
}

/** The accepted findings whose pass rate fell between the two texts (the ones a re-measure draws again). */
export function acceptedFindingsWorse(evidence: FeedbackEvidence | undefined): FeedbackFinding[] {
  return (evidence?.findings ?? []).filter(
    (f) => f.kind === 'accepted' && f.after.total > 0 && passRate(f.after) < passRate(f.before),
  );
}

/** The guard's counts on two single draws (the loop's keep decision): accepted assertions only. */
export function acceptedPassCounts(
  scenarios: readonly Scenario[],
  before: AbsoluteResult,
  after: AbsoluteResult,
): { before: PassCount; after: PassCount } | undefined {
  const ids = new Set(
    scenarios.filter((s) => s.feedback?.kind === 'accepted').flatMap((s) => s.expected_assertions ?? []),
  );
  if (ids.size === 0) return undefined;
  const rows = absoluteCountRows(before, after).filter((row) => ids.has(row.assertionId));
  return { before: pooled(rows.map((r) => r.before)), after: pooled(rows.map((r) => r.after)) };
}

/**
 * The accepted findings the candidate lost on its one draw (docs/how-it-works.md § The nightly engine
 * improves the reviewer): when the accepted findings' pooled passes dropped against the kept text's draw,
 * the scenarios of the accepted findings whose own passes dropped — the ones the floor re-draws before it
 * blocks the edit. Empty when the pooled count held.
 */
export function acceptedScenariosLost(
  scenarios: readonly Scenario[],
  before: AbsoluteResult,
  after: AbsoluteResult,
): Scenario[] {
  const counts = acceptedPassCounts(scenarios, before, after);
  if (!counts || counts.after.passes >= counts.before.passes) return [];
  return scenarios.filter(
    (s) => s.feedback?.kind === 'accepted' && scenarioPasses(s, after) < scenarioPasses(s, before),
  );
}

/** The scenario's expected assertions that pass in one draw. */
function scenarioPasses(scenario: Scenario, result: AbsoluteResult): number {
  const ids = new Set(scenario.expected_assertions ?? []);
  return result.passing_pairs.filter((p) => p.scenario_id === scenario.id && ids.has(p.assertion_id)).length;
}

/** One draw of the scenario raises its accepted finding: every one of its expected assertions passes. */
export function acceptedRaised(scenario: Scenario, result: AbsoluteResult): boolean {
  const ids = new Set(scenario.expected_assertions ?? []);
  return ids.size > 0 && scenarioPasses(scenario, result) === ids.size;
}

/**
 * How often fresh draws of a text raised a finding's scenario and missed it: the floor's re-check
 * (`acceptedRecheck`) and the silencing probe's look (silencing-probe.ts `probeLook`) decide on it.
 */
export interface RaisedTally {
  raised: number;
  missed: number;
}

/**
 * Fresh draws the floor takes at most of a lost accepted finding: the finding is held when the candidate
 * raises it in most of them, lost when it misses it in most (decided as soon as either is certain).
 */
export const ACCEPTED_RECHECK_DRAWS = 5;

/**
 * The floor's sequential look at one lost accepted finding's fresh draws of the candidate (docs/how-it-works.md
 * § The nightly engine improves the reviewer): `held` once it raised the finding in a majority of
 * ACCEPTED_RECHECK_DRAWS draws, `lost` once it missed it in a majority, else `continue`. The kept text
 * raised it on its draw; a candidate that only lost it to the grader's or the render's noise raises it
 * again in most fresh draws, one that removed the instruction behind it misses it in most.
 */
export function acceptedRecheck(draws: RaisedTally): 'held' | 'lost' | 'continue' {
  const majority = Math.floor(ACCEPTED_RECHECK_DRAWS / 2) + 1;
  if (draws.raised >= majority) return 'held';
  if (draws.missed >= majority) return 'lost';
  return 'continue';
}

function pooled(counts: readonly PassCount[]): PassCount {
  return counts.reduce((a, c) => ({ passes: a.passes + c.passes, total: a.total + c.total }), {
    passes: 0,
    total: 0,
  });
}

/** Rows per table; the rest are counted. */
const MAX_TABLE_ROWS = 15;
/** Findings named in a "still raised" / "missed" line; the rest are counted. */
const MAX_LISTED = 5;

/** Passes in more than half of its draws (a dismissed finding not raised, an accepted one raised). */
function holds(c: PassCount): boolean {
  return c.total > 0 && 2 * c.passes > c.total;
}

const measured = (f: FeedbackFinding) => f.after.total > 0;
const gainOf = (f: FeedbackFinding) => passRate(f.after) - passRate(f.before);
const byGain = (a: FeedbackFinding, b: FeedbackFinding) =>
  gainOf(b) - gainOf(a) || a.pr - b.pr || a.evalId.localeCompare(b.evalId);

function kOfN(c: PassCount): string {
  return c.total === 0 ? 'not drawn' : `${c.passes} of ${c.total}`;
}

function counts(f: FeedbackFinding): string {
  return `${kOfN(f.before)} → ${kOfN(f.after)}`;
}

/** The finding's title and file as inert text (they come from a review and the eval file). */
function titleOf(f: FeedbackFinding): string {
  return `${inertInline(f.title, 120)}${f.holdout ? ' _(holdout)_' : ''}`;
}

function fileOf(f: FeedbackFinding): string {
  return f.file === undefined ? '–' : inertInline(f.file, 120);
}

function table(rows: readonly FeedbackFinding[]): string[] {
  const shown = rows.slice(0, MAX_TABLE_ROWS);
  const lines = [
    '| finding | file | pull request | before → after (passes of draws) |',
    '| --- | --- | --- | --- |',
    ...shown.map((f) => `| ${titleOf(f)} | ${fileOf(f)} | PR ${f.pr} | ${counts(f)} |`),
  ];
  if (rows.length > shown.length) lines.push('', `_${rows.length - shown.length} more not shown._`);
  return lines;
}

/** "2 dismissed findings: A (src/a.ts, PR 3: 2 of 3 → 1 of 3, worse), …" */
function listed(rows: readonly FeedbackFinding[]): string {
  const named = rows.slice(0, MAX_LISTED).map((f) => {
    const where = [f.file === undefined ? undefined : inertInline(f.file, 120), `PR ${f.pr}`]
      .filter((x) => x !== undefined)
      .join(', ');
    const worse = f.before.total > 0 && gainOf(f) < 0 ? ', worse than before' : '';
    return `${titleOf(f)} (${where}: ${counts(f)}${worse})`;
  });
  const more = rows.length > MAX_LISTED ? `; and ${rows.length - MAX_LISTED} more` : '';
  return `${named.join('; ')}${more}`;
}

function kindLines(
  findings: readonly FeedbackFinding[],
  words: { heading: string; none: string; rest: string; restVerb: string },
): string[] {
  if (findings.length === 0) return [];
  const drawn = findings.filter(measured);
  const held = drawn.filter((f) => holds(f.after)).sort(byGain);
  const rest = drawn.filter((f) => !holds(f.after)).sort((a, b) => -byGain(a, b));
  const lines = [`**${words.heading}**`, ''];
  if (drawn.length > 0) lines.push(...(held.length > 0 ? table(held) : [words.none]), '');
  if (rest.length > 0) {
    const n = rest.length;
    lines.push(
      `${words.rest} ${n} ${n === 1 ? 'finding' : 'findings'} ${words.restVerb}: ${listed(rest)}.`,
      '',
    );
  }
  const undrawn = findings.length - drawn.length;
  if (undrawn > 0) {
    lines.push(
      `${undrawn} ${undrawn === 1 ? 'finding was' : 'findings were'} not scored tonight (holdout evals are ` +
        'scored only by the confirmation).',
      '',
    );
  }
  return lines;
}

/**
 * The section: what the counts were measured on, a table of the dismissed findings the changed skill no
 * longer raises (in most draws) and one of the accepted findings it still raises, then a line each for the
 * dismissed findings it still raises and the accepted ones it misses (regressions said as such).
 */
export function feedbackEvidenceLines(evidence: FeedbackEvidence): string[] {
  const source =
    evidence.source === 'confirmation'
      ? "the draws the ship gate's confirmation compared (the skill before and after this change)"
      : "the loop's own scores (one draw of the skill before and after this change; no confirmation ran)";
  const { findings } = evidence;
  return [
    `This skill's evals include ${findings.length} ${findings.length === 1 ? 'finding' : 'findings'} from code ` +
      `review that the team dismissed or accepted. A draw passes when the review leaves a dismissed finding ` +
      `out, or reports an accepted one; counts are from ${source}.`,
    '',
    ...kindLines(
      findings.filter((f) => f.kind === 'dismissed'),
      {
        heading: 'Dismissed findings it stops raising',
        none: '_None: it still raises every dismissed finding in most draws._',
        rest: 'It still raises',
        restVerb: 'the team dismissed',
      },
    ),
    ...kindLines(
      findings.filter((f) => f.kind === 'accepted'),
      {
        heading: 'Accepted findings it still catches',
        none: '_None: it misses every accepted finding in most draws._',
        rest: 'It misses',
        restVerb: 'the team accepted',
      },
    ),
  ];
}
