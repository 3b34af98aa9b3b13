/**
 * Where the records kept from one night to the next are stored, per skill and record: the draw without
 * the skill (`uplift-without.json`, core/iterate/uplift-record.ts; docs/how-it-works.md § Decisions under
 * noise, "Uplift") and the baseline's draws no selection touched (`baseline-draws.json`,
 * core/iterate/baseline-draws-record.ts; § Baseline). The CLI keeps each beside the skill's results.tsv
 * (src/adapters/local/night-records.ts); the Action does the same in its checkout and carries the files on
 * its state branch.
 */
import type { SkillLocation } from '../core/iterate/skill-layout.js';

export interface RecordFiles {
  /** The stored text and where it is (for messages); undefined when there is none. */
  read(skill: SkillLocation): Promise<{ text: string; source: string } | undefined>;
  /** Replaces the stored text. */
  write(skill: SkillLocation, text: string): Promise<void>;
}
