/**
 * Where the draw without the skill is kept between nights (docs/how-it-works.md § Decisions under noise,
 * "Uplift"): the record's text (core/iterate/uplift-record.ts) per skill. The CLI keeps it beside the
 * skill's results.tsv (src/adapters/local/uplift-records.ts); the Action does the same in its checkout and
 * carries the file on its state branch.
 */
import type { SkillLocation } from '../core/iterate/skill-layout.js';

export interface UpliftRecords {
  /** The stored text and where it is (for messages); undefined when there is none. */
  read(skill: SkillLocation): Promise<{ text: string; source: string } | undefined>;
  /** Replaces the stored text. */
  write(skill: SkillLocation, text: string): Promise<void>;
}

/**
 * Where the baseline's extra draws are kept between nights (docs/how-it-works.md § Baseline): the record's
 * text (core/iterate/baseline-draws-record.ts) per skill, `baseline-draws.json` beside results.tsv, the
 * same way as the draw without the skill.
 */
export type BaselineDrawsRecords = UpliftRecords;
