/**
 * The finding check (docs/how-it-works.md § Approval under noise): before a round's findings are posted,
 * a fresh call of the reviewer's model reads each one against the code at the head and says whether it
 * holds; a finding it cannot confirm is left out — not posted, not fixed, and it does not block the
 * approval. One call checks all of a round's findings. A finding the last round's check confirmed and the
 * reviewer raises again is kept without a second check. Pure: which findings go to the check, what its
 * answer keeps, and the answer's schema.
 */
import { z } from 'zod';
import { FixCheckSchema } from './answers.js';
import type { ChangeMaterial } from './prompts.js';
import type { RankedWeakness } from './state.js';
import { sameFinding } from './finding-identity.js';

export const FindingCheckSchema = FixCheckSchema;

export const FindingCheckAnswerSchema = z.object({ checks: z.array(FindingCheckSchema) });
export type FindingCheckAnswer = z.infer<typeof FindingCheckAnswerSchema>;

export interface CheckPlan {
  /** The findings the check reads, numbered 1…n in this order in its prompt. */
  toCheck: RankedWeakness[];
  /** Findings the last round's check already confirmed, raised again: kept without asking. */
  confirmedBefore: RankedWeakness[];
}

/**
 * Splits a round's findings: those a previous check confirmed (the last round's posted findings, matched
 * by title and file) are not checked again; every other one is.
 */
export function planCheck(
  findings: readonly RankedWeakness[],
  confirmed: readonly RankedWeakness[],
): CheckPlan {
  const toCheck: RankedWeakness[] = [];
  const confirmedBefore: RankedWeakness[] = [];
  for (const finding of findings) {
    (confirmed.some((c) => sameFinding(finding, c)) ? confirmedBefore : toCheck).push(finding);
  }
  return { toCheck, confirmedBefore };
}

/** The findings as the check's prompt numbers them: 1…n in the plan's order. */
export function numberedForCheck(toCheck: readonly RankedWeakness[]): RankedWeakness[] {
  return toCheck.map((w, i) => ({ ...w, rank: i + 1 }));
}

export interface CheckResult {
  /** The findings that stand, in their order (the objects given; rank them again before posting). */
  kept: RankedWeakness[];
  /** The ones the check did not confirm, with its reason. */
  dropped: Array<{ finding: RankedWeakness; evidence: string }>;
}

/**
 * Applies the check's answer to the findings: a checked finding stands only when the check says it holds.
 * One the answer does not mention stands too — silence is not evidence against a finding — and so does
 * every finding the plan did not send to the check.
 */
export function applyCheck(
  findings: readonly RankedWeakness[],
  plan: CheckPlan,
  answer: FindingCheckAnswer,
): CheckResult {
  const verdicts = new Map<number, { holds: boolean; evidence: string }>();
  for (const c of answer.checks) if (!verdicts.has(c.finding)) verdicts.set(c.finding, c);
  const refuted = new Map<RankedWeakness, string>();
  plan.toCheck.forEach((finding, i) => {
    const verdict = verdicts.get(i + 1);
    if (verdict !== undefined && !verdict.holds) refuted.set(finding, verdict.evidence);
  });
  const dropped = [...refuted].map(([finding, evidence]) => ({ finding, evidence }));
  return { kept: findings.filter((f) => !refuted.has(f)), dropped };
}

/**
 * The executor's checks from a fix call (docs/how-it-works.md § Approval under noise: the check folded
 * into the fix) as a check answer: the fix prompt numbers findings by their rank, the plan 1…n in its
 * order. A check of a finding the plan did not send is ignored: a finding a previous check confirmed is
 * not put in question again.
 */
export function checksFromFix(
  plan: CheckPlan,
  checks: ReadonlyArray<FindingCheckAnswer['checks'][number]>,
): FindingCheckAnswer {
  const numberOf = new Map(plan.toCheck.map((f, i) => [f.rank, i + 1]));
  return {
    checks: checks.flatMap((c) => {
      const n = numberOf.get(c.finding);
      return n === undefined ? [] : [{ ...c, finding: n }];
    }),
  };
}

/** Findings ranked 1…n in their order, as a round posts them. */
export function rankedAgain(findings: readonly RankedWeakness[]): RankedWeakness[] {
  return findings.map((f, i) => ({ ...f, rank: i + 1 }));
}

/**
 * What the check reads: the claims, the diff, and the files the findings cite at the head — every changed
 * file when a finding cites none, since it may be about any of them.
 */
export function materialForCheck(
  change: ChangeMaterial,
  findings: readonly RankedWeakness[],
): ChangeMaterial {
  if (findings.some((f) => f.file === null)) return change;
  const cited = new Set(findings.map((f) => f.file));
  return {
    ...change,
    files: {
      files: change.files.files.filter((f) => cited.has(f.path)),
      omitted: change.files.omitted.filter((o) => cited.has(o.path)),
    },
  };
}

/** The log line for the findings a check left out: how many, and their titles. */
export function droppedLine(round: number, head: string, dropped: CheckResult['dropped']): string {
  const titles = dropped.map((d) => `"${d.finding.title.replace(/\s+/g, ' ')}"`).join(', ');
  return (
    `round ${round}: left out ${dropped.length} finding(s) a check against the code at ${head.slice(0, 12)} ` +
    `did not confirm: ${titles}`
  );
}
