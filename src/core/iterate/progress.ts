/**
 * Terminal progress: one line per iteration and one per finished skill. Fixed-width columns so a night's
 * log reads as a table, and `word value` pairs so `grep keep` or `grep 'session-wrap '` pull out a thread.
 */
import type { SkillResult } from './run-result.js';
import { totalTokens, type Usage } from '../usage.js';
import { formatCost } from './summary.js';

export interface IterationProgress {
  skill: string;
  /** 0 for the baseline. */
  iteration: number;
  outcome: 'baseline' | 'keep' | 'revert' | 'crash';
  score: number | null;
  /** Against the running high-water mark; null for the baseline or a crash. */
  delta: number | null;
  seconds: number;
  usage: Usage;
  /** Why a revert or crash was one (`old_string occurs 66 times`), shown at the end of its line. */
  reason?: string | undefined;
  /** The skill column's width: the longest name in the queue, so every line of a night aligns. */
  width?: number | undefined;
}

/** Reasons are cut to this on the terminal (results.tsv keeps the whole of it). */
const REASON_MAX = 200;

/**
 * Wide enough for most skill folder names; a queue with longer names widens the column for every line
 * (`width`, the longest name), so the columns stay aligned.
 */
const SKILL_WIDTH = 24;

/** The skill column's width for a queue: at least SKILL_WIDTH, else the longest name. */
export function skillColumnWidth(names: readonly string[]): number {
  return Math.max(SKILL_WIDTH, ...names.map((n) => n.length));
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
const ITER_WIDTH = 8;
const OUTCOME_WIDTH = 8;
const DELTA_WIDTH = 12;
const STATUS_WIDTH = 15;

function signed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return text.startsWith('-') ? text : `+${text}`;
}

function usageText(usage: Usage): string {
  if (usage.calls <= 0) return '';
  const cost = usage.costUsd === null ? '' : `  cost ${formatCost(usage.costUsd)}`;
  return `  calls ${usage.calls}  tokens ${totalTokens(usage)}${cost}`;
}

/** e.g. `session-wrap             iter 3   keep     score 0.655  delta +0.035   41.2s  calls 21  tokens 18344`. */
export function formatIterationLine(p: IterationProgress): string {
  const iteration = p.iteration === 0 ? 'baseline' : `iter ${p.iteration}`;
  const score = p.score === null || !Number.isFinite(p.score) ? 'NULL' : p.score.toFixed(3);
  const showDelta = p.outcome !== 'baseline' && p.outcome !== 'crash' && p.delta !== null;
  const delta = showDelta ? `delta ${signed(p.delta ?? 0, 3)}` : '';
  const seconds = `${Math.max(0, p.seconds).toFixed(1)}s`;
  const why = p.reason && (p.outcome === 'revert' || p.outcome === 'crash') ? oneLine(p.reason) : '';
  const reason = why ? `  reason ${why.length > REASON_MAX ? `${why.slice(0, REASON_MAX - 1)}…` : why}` : '';
  const line =
    `${p.skill.padEnd(p.width ?? SKILL_WIDTH)} ${iteration.padEnd(ITER_WIDTH)} ${p.outcome.padEnd(OUTCOME_WIDTH)} ` +
    `score ${score.padStart(5)}  ${delta.padEnd(DELTA_WIDTH)} ${seconds.padStart(7)}${usageText(p.usage)}${reason}`;
  return line.trimEnd();
}

function score2(score: number | null): string {
  return score === null ? '-' : score.toFixed(2);
}

/** e.g. `session-wrap             done     shipped         0.62 -> 0.81 (+0.19)   iterations 12  1843.2s  abc1234`. */
export function formatSkillLine(r: SkillResult, width = SKILL_WIDTH): string {
  const delta =
    r.baselineScore === null || r.finalScore === null
      ? ''
      : ` (${signed(r.finalScore - r.baselineScore, 2)})`;
  const scores = `${score2(r.baselineScore)} -> ${score2(r.finalScore)}${delta}`;
  const link = r.link ? `  ${r.link}` : '';
  const status = r.status.replace(/\s*[\r\n]+\s*/g, ' ');
  const line =
    `${r.skill.padEnd(width)} ${'done'.padEnd(ITER_WIDTH)} ${status.padEnd(STATUS_WIDTH)} ` +
    `${scores.padEnd(22)} iterations ${r.iterations}  ${r.wallSecondsTotal.toFixed(1)}s${link}`;
  return line.trimEnd();
}
