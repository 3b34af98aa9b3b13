/**
 * The queue of a run as the pre-flight and the queue resolution decide it (docs/how-it-works.md § The
 * queue): what will run, in order and where, and every skill found and left out with its reason. The dry
 * run prints it, and a real run reports it to its front-end before the first skill (the plan-ready event).
 */
import type { SkillExclusion } from './skill-layout.js';

export interface QueuePlan {
  queue: string[];
  /** Where each queued skill lives: name → folder relative to the project. */
  dirs: Record<string, string>;
  excludedBySkipList: Array<{ skill: string; source: 'embedded' | '--skip-list extension' }>;
  excludedByFreshness: Array<{ skill: string; lastRunAt: Date }>;
  /** Found but not scorable (no evals, half set up, invalid, linked, duplicate or unusable name). */
  excludedOther: SkillExclusion[];
  /** The hint naming skills outside the skills setting, with the setting that would include them. */
  outsideSetting: string | undefined;
  /** The skills setting the skills were found with. */
  skillsGlobs: readonly string[];
  /** When the plan was made (the freshness exclusions say until when they last). */
  plannedAt: Date;
  /**
   * Skills last night's budget kept from starting, queued first tonight in their recorded order, freshness
   * notwithstanding (docs/how-it-works.md § Caps and budgets). Absent when none.
   */
  runFirst?: string[];
  /** With --skill / --queue: the skills the setting finds that were not asked for (by name). */
  notRequested?: string[];
  /** The hint about eval files git ignores, with the .gitignore line that un-ignores them (plan.ts). */
  ignoredEvals?: string;
  /** Each rule of the Agent Skills specification a found SKILL.md breaks, `<file>: <field>: <detail>` (plan.ts). */
  specViolations?: string[];
}
