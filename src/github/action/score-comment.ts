/**
 * The score comment of a pull request (docs/how-it-works.md § Untrusted text and secrets): ONE comment,
 * found by its hidden marker on the first line, created on the first push and edited on every later one.
 * `renderScoreComment` is the pure renderer of its body; `upsertScoreComment` the two API calls around it.
 */
import { formatGain, type EvalFinding, type EvidenceRow, type PassCount } from '../../core/iterate/noise.js';
import {
  regressionsOf,
  sideScore,
  type FailOn,
  type SideMeasurement,
  type SkillComparison,
  type SkillVerdict,
} from '../../core/iterate/pr-score.js';
import { BODY_LIMIT, inertInline, postable } from '../../core/text/untrusted-text.js';
import { firstLine } from '../markers.js';
import type { GitHubClient, RepoRef } from '../octokit.js';

/** How the skills were scored, said once at the top. */
export interface ScoringNote {
  kind: 'composite' | 'structural';
  /** The models label (`anthropic:claude-sonnet-4-5`), or the offline provider's. */
  models: string;
  /** Independent draws per side (composite only). */
  trials: number;
  margin: number;
  /**
   * Why only structure was scored (a fork's pull request has no secrets; no key was given): the step's own
   * sentence, shown as written — whatever it quotes from the event (a fork's name) is already inert.
   */
  structuralReason?: string | undefined;
}

export interface ScoreCommentInput {
  marker: string;
  comparisons: readonly SkillComparison[];
  scoring: ScoringNote;
  failOn: FailOn;
  baseSha: string;
  headSha: string;
  runUrl?: string | undefined;
  /** Known secrets: redacted from any untrusted text before it is shown. */
  secrets?: readonly string[];
  /** Default BODY_LIMIT; tests pass smaller ones. */
  limit?: number;
}

/** Rows of the table before the rest is collapsed into a count; each row stays well under 300 characters. */
const MAX_TABLE_ROWS = 150;
/** Skills given a details section; the rest are counted. */
const MAX_DETAIL_SECTIONS = 60;
/** Assertions and findings listed per skill. */
const MAX_LIST_ITEMS = 15;

const VERDICT_TEXT: Record<SkillVerdict, string> = {
  regression: '🔻 regression',
  improvement: '🔺 improvement',
  'within noise': '≈ within noise',
  unchanged: '= unchanged',
  'not compared': '— not compared',
};

function score(value: number | null): string {
  return value === null ? '—' : value.toFixed(4);
}

function kOfN(c: PassCount): string {
  return `${c.passes} of ${c.total}`;
}

function sideText(side: SideMeasurement | undefined): string {
  if (side === undefined) return 'none';
  if (side.status !== 'ok') return `no score (${side.status})`;
  return score(sideScore(side));
}

function changeCell(c: SkillComparison): string {
  const k = c.confirmation;
  if (!k) return '—';
  if (k.low === k.high) return formatGain(k.gain);
  return `${formatGain(k.gain)} (90 % interval ${formatGain(k.low)} to ${formatGain(k.high)})`;
}

function tableRow(c: SkillComparison, secrets: readonly string[]): string {
  const name = inertInline(c.skill.name, 100, secrets).replace(/\|/g, '&#124;');
  const change = c.skill.change === 'changed' ? '' : ` (${c.skill.change})`;
  return `| ${name}${change} | ${sideText(c.base)} → ${sideText(c.head)} | ${changeCell(c)} | ${VERDICT_TEXT[c.verdict]} |`;
}

/**
 * `assertion 3 "statement"`: never `#3`, which GitHub would link to issue 3; the statement is eval-file
 * text from the pull request, inert and cut.
 */
function assertionLabel(id: number, side: SideMeasurement | undefined, secrets: readonly string[]): string {
  const statement = side?.statements?.[String(id)];
  const quoted =
    statement === undefined ? '' : ` "${inertInline(statement.replace(/\s+/g, ' '), 120, secrets)}"`;
  return `assertion ${id}${quoted}`;
}

function evidenceLine(
  row: EvidenceRow,
  head: SideMeasurement | undefined,
  secrets: readonly string[],
): string {
  return `- ${assertionLabel(row.assertionId, head, secrets)}: passed ${kOfN(row.before)} at the base → ${kOfN(row.after)} at the head`;
}

function findingLine(f: EvalFinding, head: SideMeasurement | undefined, secrets: readonly string[]): string {
  return `- ${assertionLabel(f.assertionId, head, secrets)} **${f.kind}**: ${inertInline(f.evidence, 200, secrets)}`;
}

function listed<T>(items: readonly T[], line: (item: T) => string, what: string): string[] {
  const lines = items.slice(0, MAX_LIST_ITEMS).map(line);
  if (items.length > MAX_LIST_ITEMS) lines.push(`- … and ${items.length - MAX_LIST_ITEMS} more ${what}`);
  return lines;
}

function upliftLine(side: SideMeasurement | undefined): string | undefined {
  const u = side?.uplift;
  if (!u) return undefined;
  const points = `${u.uplift >= 0 ? '+' : ''}${(u.uplift * 100).toFixed(1)} points`;
  return (
    `Uplift at the head: ${points} — checks passed ${kOfN(u.with)} with the skill, ${kOfN(u.without)} ` +
    `without it${u.measurable ? '' : ' (within the noise)'}.`
  );
}

function failureLine(side: SideMeasurement | undefined, where: string, secrets: readonly string[]): string[] {
  if (!side || side.status === 'ok') return [];
  const detail = side.detail ? `: ${inertInline(side.detail, 300, secrets)}` : '';
  return [`The ${where} could not be scored (${side.status}${detail}).`];
}

function section(c: SkillComparison, secrets: readonly string[]): string {
  const lines = [
    `#### ${inertInline(c.skill.name, 100, secrets)}`,
    '',
    `${inertInline(c.skill.repoDir, 200, secrets)} — ${VERDICT_TEXT[c.verdict]}: ${inertInline(c.reason, 300, secrets)}.`,
  ];
  lines.push(...failureLine(c.base, 'base', secrets), ...failureLine(c.head, 'head', secrets));
  const k = c.confirmation;
  if (k && k.trials > 1) {
    lines.push(
      '',
      `Draws: base ${k.baselineScores.map((s) => s.toFixed(4)).join(', ')}; head ${k.finalScores.map((s) => s.toFixed(4)).join(', ')}.`,
    );
  }
  if (k && k.evidence.length > 0) {
    lines.push(
      '',
      'Assertions whose pass rate changed:',
      ...listed(k.evidence, (r) => evidenceLine(r, c.head, secrets), 'assertions'),
    );
  }
  if (c.newFindings.length > 0) {
    lines.push(
      '',
      'New eval-quality findings (fix the eval, not the skill):',
      ...listed(c.newFindings, (f) => findingLine(f, c.head, secrets), 'findings'),
    );
  }
  const uplift = upliftLine(c.head);
  if (uplift) lines.push('', uplift);
  return lines.join('\n');
}

const CONFIG_NOTE =
  "The base commit's config and models are used: the skillclimb.config.json of the pull request is not read.";

function scoringLine(s: ScoringNote, secrets: readonly string[]): string {
  if (s.kind === 'structural') {
    const why = s.structuralReason ? ` ${s.structuralReason}` : '';
    return `**Structural scores only** (exact: no model grades them).${why}`;
  }
  return (
    `Composite scores (structure and model-graded evals; ${inertInline(s.models, 200, secrets)}): ` +
    `${s.trials} independent draw${s.trials === 1 ? '' : 's'} per side; a change counts when it clears ` +
    `${s.margin} standard error${s.margin === 1 ? '' : 's'} of the measured noise.`
  );
}

function verdictLine(input: ScoreCommentInput): string {
  const regressions = regressionsOf(input.comparisons, 'regression');
  if (regressions.length === 0) return 'No skill regressed beyond the noise margin.';
  const names = regressions.map((c) => inertInline(c.skill.name, 100, input.secrets ?? [])).join(', ');
  return input.failOn === 'never'
    ? `Regressed beyond the noise margin: ${names} (fail-on: never — the check passes).`
    : `Regressed beyond the noise margin: ${names} — the check fails.`;
}

const sha = (value: string) => (/^[0-9a-f]{7,64}$/i.test(value) ? value.slice(0, 7) : 'unknown');

/** The comment's body: marker, summary table, one section per skill, bounded under GitHub's limit. */
export function renderScoreComment(input: ScoreCommentInput): string {
  const secrets = input.secrets ?? [];
  const all = input.comparisons;
  const head = [
    input.marker,
    '## skillclimb: skill scores on this pull request',
    '',
    `${scoringLine(input.scoring, secrets)} ${CONFIG_NOTE}`,
    '',
    verdictLine(input),
    '',
  ];
  if (all.length === 0) {
    head.push('This pull request changes no skill folder.');
  } else {
    head.push('| Skill | Base → head | Change | Verdict |', '|---|---|---|---|');
    // Regressions first, so a collapsed table never hides one.
    const ordered = [...all].sort((a, b) => rank(a) - rank(b));
    head.push(...ordered.slice(0, MAX_TABLE_ROWS).map((c) => tableRow(c, secrets)));
    if (ordered.length > MAX_TABLE_ROWS) {
      head.push('', `… and ${ordered.length - MAX_TABLE_ROWS} more skills (the job's log lists every one).`);
    }
    const detailed = ordered.filter(hasDetails);
    if (detailed.length > 0) {
      head.push('', '<details><summary>Per skill</summary>', '');
      head.push(...detailed.slice(0, MAX_DETAIL_SECTIONS).flatMap((c) => [section(c, secrets), '']));
      if (detailed.length > MAX_DETAIL_SECTIONS) {
        head.push(`… and ${detailed.length - MAX_DETAIL_SECTIONS} more skills with details.`, '');
      }
      head.push('</details>');
    }
  }
  const run = input.runUrl ? ` in [this run](${encodeURI(input.runUrl)})` : '';
  head.push(
    '',
    '---',
    `_Base ${sha(input.baseSha)}, head ${sha(input.headSha)}; scored${run}. This comment is updated on every push._`,
  );
  return postable(head.join('\n'), input.limit ?? BODY_LIMIT);
}

function rank(c: SkillComparison): number {
  return ['regression', 'improvement', 'within noise', 'unchanged', 'not compared'].indexOf(c.verdict);
}

function hasDetails(c: SkillComparison): boolean {
  return c.verdict !== 'unchanged' || c.newFindings.length > 0 || c.head?.uplift !== undefined;
}

/** The marker comment to edit: the first whose first line is exactly the marker and whose author is a bot. */
function isOurs(comment: { body?: string | null; user?: { type?: string } | null }, marker: string): boolean {
  return firstLine(comment.body) === marker && comment.user?.type === 'Bot';
}

export interface WrittenComment {
  id: number;
  url: string;
  created: boolean;
}

/**
 * Edits the pull request's score comment in place, or creates it when there is none and `create` allows
 * (a pull request that never touched a skill gets no comment). Only a bot's comment counts (the Action's
 * token writes as one): a person pasting the marker cannot make their comment the one the Action edits.
 */
export async function upsertScoreComment(
  client: GitHubClient,
  repo: RepoRef,
  pullNumber: number,
  marker: string,
  body: string,
  create = true,
): Promise<WrittenComment | undefined> {
  const comments = await client.paginate(client.rest.issues.listComments, {
    ...repo,
    issue_number: pullNumber,
    per_page: 100,
  });
  const ours = comments.find((c) => isOurs(c, marker));
  if (ours) {
    const { data } = await client.rest.issues.updateComment({ ...repo, comment_id: ours.id, body });
    return { id: data.id, url: data.html_url, created: false };
  }
  if (!create) return undefined;
  const { data } = await client.rest.issues.createComment({ ...repo, issue_number: pullNumber, body });
  return { id: data.id, url: data.html_url, created: true };
}
