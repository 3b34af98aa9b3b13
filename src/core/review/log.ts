/**
 * The review loop's human-readable records (docs/how-it-works.md § Review state, memory and receipts):
 * AUTO_REVIEW.md — a header per run, a `## Round N (timestamp)` section per round with the reviewer's raw
 * answer verbatim inside `<details>`, and at the end a final summary, the remaining blockers with an effort
 * estimate each, and `## Method Description`; REVIEWER_MEMORY.md — the reviewer's own memory updates,
 * appended per round; and the acquittal receipt line of ACQUITTAL_LOG.jsonl.
 */
import { fenceFor } from '../text/neutralise.js';
import type { Effort } from './answers.js';
import type { Independence } from './gate.js';
import type { ModelIdentity, RankedWeakness, RoundSummary, Difficulty, FixMode, Preset } from './state.js';
import { totalTokens, type Usage } from '../usage.js';

/** A model answer kept verbatim: in a fence longer than any backtick run inside it, so nothing ends it early. */
export function verbatimBlock(text: string, info = ''): string {
  const fence = fenceFor(text);
  return `${fence}${info}\n${text}\n${fence}`;
}

function details(summary: string, raw: string): string {
  return ['<details>', `<summary>${summary}</summary>`, '', verbatimBlock(raw), '', '</details>'].join('\n');
}

export function formatScore(score: number | null): string {
  return score === null ? 'unavailable' : `${Number.isInteger(score) ? score : score.toFixed(1)}/10`;
}

export function formatCost(costUsd: number | null): string {
  return costUsd === null ? 'cost unknown' : `$${costUsd.toFixed(4)}`;
}

export function formatUsage(usage: Usage): string {
  return `${usage.calls} model call(s), ${totalTokens(usage).toLocaleString('en-US')} tokens, ${formatCost(usage.costUsd)}`;
}

export interface RunHeaderInput {
  runId: string;
  startedAt: string;
  target: string;
  claimsSource: string;
  range: string;
  reviewer: ModelIdentity;
  executor: ModelIdentity;
  independence: Independence;
  difficulty: Difficulty;
  maxRounds: number;
  fix: FixMode;
  checkpoint: boolean;
  preset: Preset;
  /** Which instructions the reviewer has (docs/how-it-works.md § The reviewer learns), one sentence. */
  instructions?: string | undefined;
}

export function renderRunHeader(input: RunHeaderInput): string {
  return [
    `# Auto Review Loop — ${input.runId}`,
    '',
    `- Started: ${input.startedAt}`,
    `- Under review: ${input.target}, diff ${input.range}`,
    `- Claims: ${input.claimsSource}`,
    `- Reviewer: ${input.reviewer.id} (${input.reviewer.family}); executor: ${input.executor.id} (${input.executor.family})`,
    `- Independence: ${input.independence.sentence}`,
    `- Difficulty: ${input.difficulty}; max rounds: ${input.maxRounds}; fix: ${input.fix}; checkpoint: ${input.checkpoint ? 'on' : 'off'}; preset: ${input.preset}`,
    ...(input.instructions === undefined ? [] : [`- Instructions: ${input.instructions}`]),
    '',
  ].join('\n');
}

export interface RoundLogInput {
  round: number;
  timestamp: string;
  head: string;
  score: number | null;
  verdict: string;
  summary: string;
  weaknesses: readonly RankedWeakness[];
  raw: string;
  /** Nightmare: the independent verifier's raw answer. */
  verifierRaw: string | null;
  debate: string | null;
  actions: readonly string[];
  results: readonly string[];
  status: string;
  usage: Usage;
  seconds: number;
}

function criticism(w: RankedWeakness): string {
  const where = w.file ? ` (${w.file}${w.line ? `:${w.line}` : ''})` : '';
  const tag = w.source === 'verifier' ? ' [verifier]' : '';
  const resolved = w.resolved_by_debate ? ' — resolved in debate' : '';
  return `  ${w.rank}. [${w.severity}] ${w.title}${where}${tag}${resolved}`;
}

export function renderRoundSection(input: RoundLogInput): string {
  const criticisms = input.weaknesses.length ? input.weaknesses.map(criticism) : ['  (none)'];
  const lines = [
    `## Round ${input.round} (${input.timestamp})`,
    '',
    '### Assessment (Summary)',
    `- Score: ${formatScore(input.score)}`,
    `- Verdict: ${input.verdict === 'unavailable' ? 'REVIEW_UNAVAILABLE (no verdict: the answer could not be read)' : input.verdict}`,
    `- Reviewed head: ${input.head}`,
    ...(input.summary.trim() ? [`- Summary: ${input.summary.trim().replace(/\s*\n\s*/g, ' ')}`] : []),
    '- Key criticisms:',
    ...criticisms,
    '',
    '### Reviewer Raw Response',
    '',
    details('Click to expand full reviewer response', input.raw),
    '',
  ];
  if (input.verifierRaw !== null) {
    lines.push(
      '### Verifier Raw Response (nightmare)',
      '',
      details('Click to expand the independent verifier’s response', input.verifierRaw),
      '',
    );
  }
  if (input.debate !== null)
    lines.push('### Debate Transcript (hard + nightmare only)', '', input.debate, '');
  lines.push(
    '### Actions Taken',
    ...(input.actions.length ? input.actions.map((a) => `- ${a}`) : ['- none']),
    '',
    '### Results',
    ...input.results.map((r) => `- ${r}`),
    `- Round cost: ${formatUsage(input.usage)}, ${input.seconds.toFixed(1)} s`,
    '',
    '### Status',
    `- ${input.status}`,
    '',
  );
  return lines.join('\n');
}

/** The heading that opens a run's part of REVIEWER_MEMORY.md. */
export function memoryRunHeading(runId: string): string {
  return `# Reviewer Memory — ${runId}`;
}

/** The current run's part of REVIEWER_MEMORY.md: what the reviewer is shown (an older run's is not its memory). */
export function memoryForRun(text: string, runId: string): string {
  const heading = memoryRunHeading(runId);
  const at = text.lastIndexOf(heading);
  if (at === -1) return '';
  const rest = text.slice(at + heading.length);
  const next = rest.search(/^# Reviewer Memory — /m);
  return (next === -1 ? rest : rest.slice(0, next)).trim();
}

export interface MemorySectionInput {
  round: number;
  score: number | null;
  memoryUpdate: string;
  /** The previous available round's score: a regression gets a pointer to the two raw answers. */
  previous: { round: number; score: number } | undefined;
  traceId: string | null;
}

export function renderMemorySection(input: MemorySectionInput): string {
  const lines = [`## Round ${input.round} — Score: ${formatScore(input.score)}`];
  if (input.score === null) {
    lines.push(
      '- REVIEW_UNAVAILABLE: the answer could not be read; nothing was added to the memory this round.',
    );
  } else {
    lines.push(input.memoryUpdate.trim() === '' ? '- (no memory update given)' : input.memoryUpdate.trim());
    if (input.previous !== undefined && input.score < input.previous.score) {
      const where = input.traceId ? ` (raw answers in .aris/traces/${input.traceId}/)` : '';
      lines.push(
        `- **Regression**: ${formatScore(input.previous.score)} in round ${input.previous.round} → ` +
          `${formatScore(input.score)} now; compare the two rounds' raw answers${where} for the criterion that flipped.`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

export const EFFORT_WORDS: Readonly<Record<Effort, string>> = {
  trivial: 'minutes',
  small: 'under an hour',
  medium: 'a few hours',
  large: 'a day or more',
};

export function renderBlockers(blockers: readonly RankedWeakness[]): string {
  if (blockers.length === 0) return '- none recorded (the last round had no readable weaknesses)';
  return blockers
    .map((w) => {
      const where = w.file ? ` (${w.file}${w.line ? `:${w.line}` : ''})` : '';
      return `${w.rank}. [${w.severity}] ${w.title}${where}\n   - Minimum fix: ${w.minimum_fix}\n   - Effort: ${EFFORT_WORDS[w.effort]} (${w.effort})`;
    })
    .join('\n');
}

/** The original's "suggest whether to continue manually or pivot", from the score trend. */
export function continueOrPivot(history: readonly RoundSummary[]): string {
  const scored = history.filter((r) => r.score !== null);
  const first = scored[0]?.score;
  const last = scored.at(-1)?.score;
  if (first === undefined || first === null || last === undefined || last === null) {
    return 'No round produced a readable score: check the reviewer model, then run again.';
  }
  if (last - first >= 1) {
    return `The score rose from ${formatScore(first)} to ${formatScore(last)}: continuing manually on the blockers above is likely to get there.`;
  }
  return `The score did not improve (${formatScore(first)} → ${formatScore(last)} over ${scored.length} round(s)): consider pivoting — rethink the approach or narrow the claims — rather than more rounds of the same.`;
}

export interface FinalSummaryInput {
  runId: string;
  endedAt: string;
  status: string;
  sentence: string;
  maxRounds: number;
  history: readonly RoundSummary[];
  usage: Usage;
  independence: Independence;
  receipt: AcquittalReceipt | undefined;
  /** Given when the run ended without acquittal. */
  blockers: readonly RankedWeakness[] | undefined;
}

export function renderFinalSummary(input: FinalSummaryInput): string {
  const rows = input.history.map(
    (r) =>
      `| ${r.round} | ${formatScore(r.score)} | ${r.verdict} | \`${r.head.slice(0, 12)}\` | ${r.seconds.toFixed(1)} | ${totalTokens(r.usage)} | ${formatCost(r.usage.costUsd)} |`,
  );
  const lines = [
    `## Final Summary — ${input.runId}`,
    '',
    `- Ended: ${input.endedAt} (${input.status}): ${input.sentence}`,
    `- Rounds: ${input.history.length} of at most ${input.maxRounds}`,
    `- Usage: ${formatUsage(input.usage)}`,
    `- Independence: ${input.independence.sentence}`,
    `- Acquittal receipt: ${input.receipt ? `round ${input.receipt.round}, trace ${input.receipt.trace_id} (review-stage/ACQUITTAL_LOG.jsonl)` : 'none'}`,
    '',
    '| Round | Score | Verdict | Head | Seconds | Tokens | Cost |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
  if (input.blockers !== undefined) {
    lines.push(
      '### Remaining Blockers',
      '',
      renderBlockers(input.blockers),
      '',
      continueOrPivot(input.history),
      '',
    );
  }
  return lines.join('\n');
}

export interface MethodInput {
  target: string;
  range: string;
  changedFiles: number;
  claimsSource: string;
  reviewer: ModelIdentity;
  executor: ModelIdentity;
  difficulty: Difficulty;
  preset: Preset;
  fix: FixMode;
}

/**
 * The original asks the executor for a paragraph on "the final method"; for a code review the method is the
 * review itself, so it is described from the run's facts (no extra model call, nothing invented).
 */
export function renderMethodDescription(input: MethodInput): string {
  const depth =
    input.difficulty === 'medium'
      ? ''
      : input.difficulty === 'hard'
        ? ' After each critical review the executor rebutted up to three weaknesses and the reviewer ruled on each; only accepted rebuttals resolved a weakness.'
        : ' After each critical review the executor rebutted up to three weaknesses and the reviewer ruled on each; a fresh second reviewer with read-only tools (read a file, list a folder, search text) checked the claims against the repository at the reviewed head, and a round acquits only when both reviews are positive.';
  const fix =
    input.fix === 'auto'
      ? `The executor ${input.executor.id} (${input.executor.family}) then proposed exact-text edits for the remaining weaknesses; edits passing the allow-list (files the change already touches, plus configured globs; never .github/workflows/, review-stage/ or .aris/) were committed, one commit per round, and the next round was shown only the raw diff between the two reviewed heads.`
      : input.fix === 'manual'
        ? 'Fixes were left to the person: after each critical round the run paused, and the next invocation reviewed the new head, shown the raw diff since the last reviewed head.'
        : 'No fixes were made (review only).';
  return [
    '## Method Description',
    '',
    `This run reviewed ${input.target}: the diff ${input.range} over ${input.changedFiles} file(s), against the claims in ${input.claimsSource}. ` +
      `Each round the reviewer ${input.reviewer.id} (${input.reviewer.family}) scored the change from 1 to 10 and listed ranked weaknesses with a minimum fix each, under the original prompt and its five scope limits (${input.preset} preset, ${input.difficulty} difficulty), with its own memory of earlier rounds.${depth}`,
    '',
    `Before a round's weaknesses were recorded, each new one was checked against the code at the head${input.fix === 'auto' && input.difficulty === 'medium' ? " — by the executor within its fix call when the fix followed at once (it fixed only those that held), otherwise by a fresh call of the reviewer's model —" : " by a fresh call of the reviewer's model,"} and the ones the check could not confirm were left out. ${fix}`,
    '',
    `The loop stops when the score is at least 6, the verdict is ready or almost and no critical or major weakness stands${input.difficulty === 'nightmare' ? '' : "; an approval on the run's first look at the code it approves (round 1, or commits other than the loop's own fix since the last review) was confirmed by a fresh second review of the same head that found no blocker the check upheld"}; only a reviewer of another known model family than the executor's can acquit, and each acquittal is one append-only line in review-stage/ACQUITTAL_LOG.jsonl bound to the run id and its trace folder under .aris/traces/.`,
    '',
  ].join('\n');
}

/** One line of ACQUITTAL_LOG.jsonl: the original's fields first, then the identities and the head. */
export interface AcquittalReceipt {
  run_id: string;
  round: number;
  backend: string;
  effort: string;
  verdict: 'ready' | 'almost';
  score: number;
  trace_id: string;
  timestamp: string;
  difficulty: Difficulty;
  reviewer_model: string;
  reviewer_family: string;
  executor_model: string;
  executor_family: string;
  family_relation: 'different';
  head: string;
}

/** The whole line, newline included: one write of it is one record. */
export function receiptLine(receipt: AcquittalReceipt): string {
  return `${JSON.stringify(receipt)}\n`;
}

/** Lines of ACQUITTAL_LOG.jsonl that parse as objects; a damaged line is skipped, never rewritten. */
export function parseReceipts(text: string): Array<Partial<AcquittalReceipt> & Record<string, unknown>> {
  const out: Array<Partial<AcquittalReceipt> & Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        out.push(value as Record<string, unknown>);
    } catch {
      // an interrupted foreign write: not ours to repair in an append-only file
    }
  }
  return out;
}

/** Where a run's traces go, relative to `.aris/traces/`: the skill's name, then one folder per run. */
export const TRACE_SKILL = 'auto-review-loop';

/**
 * The next free `<YYYY-MM-DD>_runNN` among the folder names already there for that date (`_run01` first).
 * The trace id a receipt carries is `auto-review-loop/<that name>`.
 */
export function nextTraceFolder(now: Date, existing: readonly string[]): string {
  const date = now.toISOString().slice(0, 10);
  const prefix = `${date}_run`;
  const taken = existing
    .filter((name) => name.startsWith(prefix))
    .map((name) => Number(name.slice(prefix.length)))
    .filter((n) => Number.isInteger(n) && n > 0);
  const next = taken.length === 0 ? 1 : Math.max(...taken) + 1;
  return `${prefix}${String(next).padStart(2, '0')}`;
}

/** A trace file's base name for one call: `round-02-review`, `round-02-verifier`, `round-01-fix`. */
export function traceCallName(round: number, purpose: string, attempt = 1): string {
  const base = `round-${String(round).padStart(2, '0')}-${purpose}`;
  return attempt > 1 ? `${base}-attempt${attempt}` : base;
}
