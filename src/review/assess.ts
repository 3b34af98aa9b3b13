/**
 * Phase A and B (docs/how-it-works.md § Review rounds, § Debate and nightmare): the reviewer's assessment
 * — a garbled answer asked once more, then recorded as REVIEW_UNAVAILABLE, never as a verdict — and in
 * nightmare the fresh verifier with read-only tools, whose verdict must also be positive for the round to
 * acquit.
 */
import type { ReviewAnswer, Verdict } from '../core/review/answers.js';
import { isPositive } from '../core/review/gate.js';
import type { ReviewPromptInput } from '../core/review/prompts.js';
import type { RankedWeakness } from '../core/review/state.js';
import { callWithOneRetry, type RoundMeter } from './calls.js';
import type { RoundMaterial } from './material.js';
import type { RunContext } from './start.js';
import { createReadOnlyTools } from './verifier-tools.js';

export interface Assessment {
  available: boolean;
  score: number | null;
  verdict: Verdict | 'unavailable';
  summary: string;
  weaknesses: RankedWeakness[];
  memoryUpdate: string;
  /** The reviewer's raw answer (of the last attempt), verbatim. */
  raw: string;
  verifierRaw: string | null;
  /** Why the round cannot acquit despite the reviewer, e.g. the verifier was unavailable. */
  note: string | null;
  positive: boolean;
}

const VERDICT_ORDER: readonly Verdict[] = ['not ready', 'almost', 'ready'];

function worse(a: Verdict, b: Verdict): Verdict {
  return VERDICT_ORDER.indexOf(a) <= VERDICT_ORDER.indexOf(b) ? a : b;
}

export function ranked(
  answer: ReviewAnswer,
  source: RankedWeakness['source'],
  offset: number,
): RankedWeakness[] {
  return answer.weaknesses.map((w, i) => ({
    rank: offset + i + 1,
    title: w.title,
    severity: w.severity,
    detail: w.detail,
    minimum_fix: w.minimum_fix,
    effort: w.effort,
    file: w.file,
    line: w.line,
    source,
    resolved_by_debate: false,
  }));
}

export async function assess(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  material: RoundMaterial,
  memory: string,
  carried: Pick<ReviewPromptInput, 'openBlockers' | 'dismissed'> = {},
): Promise<Assessment> {
  const { models } = ctx.ports;
  const { options } = ctx;
  const review = await callWithOneRetry(ctx, meter, round, 'review', () =>
    models.review(
      {
        round,
        maxRounds: options.maxRounds,
        preset: options.preset,
        difficulty: options.difficulty,
        change: material.change,
        sinceLast: material.sinceLast,
        memory,
        ...carried,
      },
      ctx.signal,
    ),
  );
  if (!review.ok) {
    return {
      available: false,
      score: null,
      verdict: 'unavailable',
      summary: `REVIEW_UNAVAILABLE: ${review.error.message} (twice); no verdict this round.`,
      weaknesses: [],
      memoryUpdate: '',
      raw: review.error.raw,
      verifierRaw: null,
      note: null,
      positive: false,
    };
  }
  const answer = review.call.value;
  const main: Assessment = {
    available: true,
    score: answer.score,
    verdict: answer.verdict,
    summary: answer.summary,
    weaknesses: ranked(answer, 'reviewer', 0),
    memoryUpdate: answer.memory_update,
    raw: review.call.raw,
    verifierRaw: null,
    note: null,
    positive: isPositive(answer.score, answer.verdict),
  };
  if (options.difficulty !== 'nightmare') return main;

  const tools = createReadOnlyTools(ctx.ports.target, material.head, options.verifierLimits);
  const verified = await callWithOneRetry(ctx, meter, round, 'verifier', () =>
    models.verify(
      {
        round,
        maxRounds: options.maxRounds,
        preset: options.preset,
        head: material.head,
        change: material.change,
        limits: options.verifierLimits,
      },
      tools,
      ctx.signal,
    ),
  );
  if (!verified.ok) {
    return {
      ...main,
      verifierRaw: verified.error.raw,
      note: 'the independent verifier’s answer could not be read (twice), so this round cannot acquit',
      positive: false,
    };
  }
  const check = verified.call.value;
  return {
    ...main,
    score: Math.min(answer.score, check.score),
    verdict: worse(answer.verdict, check.verdict),
    summary: `${answer.summary}\nVerifier: ${check.summary}`.trim(),
    weaknesses: [...main.weaknesses, ...ranked(check, 'verifier', main.weaknesses.length)],
    verifierRaw: verified.call.raw,
    positive: main.positive && isPositive(check.score, check.verdict),
  };
}
