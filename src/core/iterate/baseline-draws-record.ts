/**
 * The baseline's extra draws, kept from one night to the next (docs/how-it-works.md § Baseline, § Decisions
 * under noise, "The noise"): draws of a SKILL.md text that no selection touched (the baseline's draws
 * beyond draw 0, the confirmation's fresh draws of the final text) are draws of the next night's baseline
 * when that night starts from the same text. Pure: the key, the record's format and its reading. Each
 * entry holds one text's draws under its key; a draw keeps its composite, whether every check passed and
 * its (scenario, assertion, pass) verdicts: no model text, no reason, no secret.
 */
import { z } from 'zod';
import type { SkillEvals } from './evals.js';
import type { ScoreMode } from './score-types.js';
import {
  parseRecordFile,
  StoredVerdictSchema,
  verdictFromFile,
  verdictToFile,
  type StoredVerdict,
} from './stored-verdicts.js';
import type { StructuralSettings } from './structural.js';
import { hashKeyMaterial, upliftKeyMaterial } from './uplift-record.js';

/** Bump when what a draw's composite or verdicts mean changes in code rather than in what the key hashes. */
export const BASELINE_DRAWS_VERSION = 1;

/** One stored draw of a text (training scenarios only: the holdout is scored apart and never stored). */
export interface StoredDraw {
  score: number;
  /** Every check of the draw passed (the confirmed-all-pass test of the climb's start). */
  allPass: boolean;
  pairs: StoredVerdict[];
}

/** One text's stored draws. */
export interface BaselineDrawsEntry {
  /** sha256 of everything the draws depend on (baselineDrawsKeyOf). */
  key: string;
  /** When the first of them was drawn (ISO 8601). */
  drawnAt: string;
  /**
   * The text's structural score as the draws had it: it also depends on the files SKILL.md links to,
   * which the key does not hash, so tonight's draw 0 must have the same one for the draws to stand.
   */
  structural: number;
  draws: StoredDraw[];
}

/** The file: at most the text the night started from and the text it would ship. */
export interface BaselineDrawsRecord {
  entries: BaselineDrawsEntry[];
}

const EntrySchema = z.object({
  key: z.string().regex(/^[0-9a-f]{64}$/),
  drawn_at: z.iso.datetime({ offset: true }),
  structural: z.number(),
  draws: z
    .array(z.object({ score: z.number(), all_pass: z.boolean(), pairs: z.array(StoredVerdictSchema).min(1) }))
    .min(1),
});
const RecordSchema = z.object({
  version: z.literal(BASELINE_DRAWS_VERSION),
  entries: z.array(EntrySchema).min(1),
});

/**
 * The key of a text's draws: everything the uplift's key covers (evals, prompts, render and grader models
 * and their servers; core/iterate/uplift-record.ts) with the SKILL.md text in the placeholder's place, plus the text itself,
 * the scoring mode and the structural settings the composite is computed with.
 */
export function baselineDrawsKeyOf(input: {
  evals: SkillEvals;
  skillText: string;
  renderModelId: string;
  graderModelId: string | undefined;
  renderEndpoint: string | undefined;
  graderEndpoint: string | undefined;
  mode: ScoreMode;
  structural: StructuralSettings | undefined;
}): string {
  const { skillText, ...models } = input;
  return hashKeyMaterial({
    ...upliftKeyMaterial({ ...models, placeholder: skillText }),
    baselineDraws: BASELINE_DRAWS_VERSION,
    skillText,
    mode: input.mode,
    structural: input.structural ?? null,
  });
}

/** The record's file text (`baseline-draws.json`). */
export function formatBaselineDraws(record: BaselineDrawsRecord): string {
  const file: z.input<typeof RecordSchema> = {
    version: BASELINE_DRAWS_VERSION,
    entries: record.entries.map((e) => ({
      key: e.key,
      drawn_at: e.drawnAt,
      structural: e.structural,
      draws: e.draws.map((d) => ({
        score: d.score,
        all_pass: d.allPass,
        pairs: d.pairs.map(verdictToFile),
      })),
    })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The record in a file's text; undefined for anything else (not JSON, another shape, another version). */
export function parseBaselineDraws(text: string): BaselineDrawsRecord | undefined {
  const data = parseRecordFile(text, RecordSchema);
  if (data === undefined) return undefined;
  return {
    entries: data.entries.map((e) => ({
      key: e.key,
      drawnAt: e.drawn_at,
      structural: e.structural,
      draws: e.draws.map((d) => ({
        score: d.score,
        allPass: d.all_pass,
        pairs: d.pairs.map(verdictFromFile),
      })),
    })),
  };
}
