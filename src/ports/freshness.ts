import type { SkillLocation } from '../core/iterate/skill-layout.js';

/**
 * When a skill last ran: `results.tsv` mtime in the skill's folder (CLI) or a time recorded by the skill's
 * name on the state branch (Action).
 */
export interface Freshness {
  lastRunAt(skill: SkillLocation): Promise<Date | null>;
}
