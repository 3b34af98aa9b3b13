/** The body of a skill's pull request (pure): what changed, by how much, and how the night went. */
import { GITHUB_BODY_LIMIT, boundBody } from '../../core/text/body-limit.js';
import { inertInline } from '../../core/text/untrusted-text.js';
import type { ShipRequest } from '../../ports/shipper.js';
import type { Usage } from '../../core/usage.js';
import { formatPullRequestMarker } from '../markers.js';
import { feedbackEvidenceLines } from '../../core/iterate/feedback-evidence.js';
import { measurementLines } from '../../core/iterate/measurement-text.js';
import { skillPriceLine } from '../../core/iterate/night-price.js';
import { SCORE_CHART_CAPTION, latestRunRows, renderScoreChart } from './score-chart.js';

export interface PullRequestBodyInput {
  request: Pick<
    ShipRequest,
    | 'skill'
    | 'skillPath'
    | 'baseBranch'
    | 'baselineScore'
    | 'finalScore'
    | 'iterations'
    | 'linesBaseline'
    | 'linesFinal'
    | 'keptEdits'
    | 'rows'
    | 'usage'
    | 'measurement'
  >;
  /** The PR's base branch (the Action's `base`), which may differ from the checkout's branch. */
  base: string;
  runUrl: string | undefined;
  runId: string | undefined;
  modelsLabel: string | undefined;
  /** Set when the squash was rebuilt on a base that moved during the run. */
  rebuiltNote: string | undefined;
  /** The squash commit pushed to the branch, recorded in the marker (the Action's claim on the branch). */
  commit?: string | undefined;
  /** Where the full text is when the body has to be cut (e.g. the skill's results.tsv on the state branch). */
  fullTextAt?: string | undefined;
}

/**
 * GitHub rejects bodies over 65,536 characters: the per-iteration table is shortened first, then the whole
 * body is bounded (boundBody closes whatever a cut leaves open and says what was cut).
 */
const MAX_BODY = 60_000;
const MAX_DESCRIPTION = 240;

/**
 * Untrusted text (a model's description, a label from config) in a table cell or list item: cut BEFORE it
 * is neutralised (docs/how-it-works.md § Untrusted text and secrets), so no cut can reopen a mention, a
 * reference, HTML or a link; `|` becomes a character reference, so it cannot add a column either.
 */
function modelTextCell(text: string, max = MAX_DESCRIPTION): string {
  return inertInline(text.replace(/\s+/g, ' ').trim(), max);
}

export function formatScore(score: number | null): string {
  return score === null ? 'NULL' : score.toFixed(6);
}

export function formatDelta(delta: number): string {
  return `${delta >= 0 ? '+' : ''}${delta.toFixed(6)}`;
}

/** `+3`, `-2`, `0`: no sign on zero (the PR table); the ship message's `+0` is formatAlwaysSigned. */
export function formatSignedExceptZero(value: number): string {
  return `${value > 0 ? '+' : ''}${value}`;
}

export function formatUsage(usage: Usage): { tokens: string; cost: string } {
  const n = (v: number) => v.toLocaleString('en-US');
  const cache =
    usage.cacheReadTokens || usage.cacheWriteTokens
      ? `, cache read ${n(usage.cacheReadTokens)} / write ${n(usage.cacheWriteTokens)}`
      : '';
  return {
    tokens: `${n(usage.calls)} calls, input ${n(usage.inputTokens)}, output ${n(usage.outputTokens)}${cache}`,
    cost:
      usage.costUsd === null ? 'not reported by the provider' : `$${usage.costUsd.toFixed(4)} (estimated)`,
  };
}

function iterationTable(rows: ShipRequest['rows'], limit: number): string[] {
  const run = latestRunRows(rows);
  const shown = run.slice(0, limit);
  const lines = [
    '| # | commit | score | status | description | wall s |',
    '| ---: | --- | ---: | --- | --- | ---: |',
    ...shown.map(
      (row, i) =>
        `| ${i} | ${modelTextCell(row.commit, 40)} | ${formatScore(row.score)} | ${row.status} | ${modelTextCell(row.description)} | ${row.wallSeconds.toFixed(3)} |`,
    ),
  ];
  if (run.length > shown.length) lines.push('', `_${run.length - shown.length} more rows in results.tsv._`);
  return lines;
}

/** The gain this PR is credited with: the confirmed gain when the ship gate confirmed, else final − baseline. */
function confirmedGainOf(request: PullRequestBodyInput['request']): number {
  return request.measurement?.confirmation?.gain ?? request.finalScore - request.baselineScore;
}

export function buildPullRequestBody(input: PullRequestBodyInput): string {
  const { request } = input;
  const delta = request.finalScore - request.baselineScore;
  const linesDelta = request.linesFinal - request.linesBaseline;
  const usage = formatUsage(request.usage);
  const marker = formatPullRequestMarker({
    skill: request.skill,
    baseline: request.baselineScore,
    final: request.finalScore,
    iterations: request.iterations,
    ...(input.runId ? { run: input.runId } : {}),
    ...(input.commit ? { commit: input.commit } : {}),
  });

  const head = [
    marker,
    `## skill-iterate: \`${request.skill}\``,
    '',
    `Nightly hill-climb of \`${request.skillPath}/SKILL.md\` against its evals, squashed into one commit on \`${input.base}\`.`,
    '',
    '| | |',
    '| --- | --- |',
    `| Baseline → final | ${formatScore(request.baselineScore)} → ${formatScore(request.finalScore)} |`,
    `| Delta | ${formatDelta(delta)} |`,
    `| Iterations | ${request.iterations} |`,
    `| Lines delta | ${formatSignedExceptZero(linesDelta)} (${request.linesBaseline} → ${request.linesFinal}) |`,
    `| Tokens | ${usage.tokens} |`,
    `| Cost | ${usage.cost} |`,
    `| Price of a point | ${skillPriceLine(request.usage, confirmedGainOf(request), request.measurement?.confirmation !== undefined).replace(/^Price: /, '')} |`,
    ...(input.modelsLabel ? [`| Models | ${modelTextCell(input.modelsLabel)} |`] : []),
    '',
  ];
  if (input.rebuiltNote) head.push(`> [!NOTE]`, `> ${input.rebuiltNote}`, '');

  const kept =
    request.keptEdits.length === 0
      ? ['_No edit was kept; the line count changed through simplification only._']
      : request.keptEdits.map(
          (edit, i) =>
            `${i + 1}. iteration ${edit.iteration} (${modelTextCell(edit.commit, 40)}, ${formatScore(edit.score)}, ${formatDelta(edit.delta)}): ${modelTextCell(edit.description, 2_000)}`,
        );
  const chart = renderScoreChart(request.skill, request.rows);
  // The confirmation, evidence table, holdout and eval findings (docs/how-it-works.md § Decisions under noise).
  const measuredLines = request.measurement ? measurementLines(request.measurement) : [];
  const measured = measuredLines.length > 0 ? ['### How sure this is', '', ...measuredLines, ''] : [];
  // The reviewer skill's findings (docs/how-it-works.md § The nightly engine improves the reviewer).
  const feedback = request.measurement?.feedback;
  const findings = feedback ? ['### Review findings', '', ...feedbackEvidenceLines(feedback)] : [];
  const footer = [
    '',
    input.runUrl ? `[Workflow run](${input.runUrl}) · generated by skillclimb` : 'Generated by skillclimb.',
  ];

  const assemble = (limit: number) =>
    [
      ...head,
      ...measured,
      ...findings,
      '### Kept edits',
      '',
      ...kept,
      '',
      ...(chart ? ['### Score per iteration', '', chart, '', SCORE_CHART_CAPTION, ''] : []),
      '### Iterations',
      '',
      ...iterationTable(request.rows, limit),
      ...footer,
    ].join('\n');

  let limit = 500;
  let body = assemble(limit);
  while (body.length > MAX_BODY && limit > 10) {
    limit = Math.floor(limit / 2);
    body = assemble(limit);
  }
  // Many long kept edits can still be too much: cut, close, and say where the whole text is.
  return boundBody(body, {
    limit: GITHUB_BODY_LIMIT - 1,
    ...(input.fullTextAt ? { fullTextAt: input.fullTextAt } : {}),
  }).body;
}
