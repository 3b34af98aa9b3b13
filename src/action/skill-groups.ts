/**
 * Log groups per skill around ONE engine run. The engine polls the kill-switch once at launch and then
 * between skills, so each poll after the first marks "the previous skill is done"; the next skill's group
 * opens lazily with its first log line, so a run that stops there leaves no empty group behind.
 */
import type { KillSwitch } from '../ports/kill-switch.js';
import type { Logger } from '../ports/logger.js';

export interface GroupSink {
  startGroup(name: string): void;
  endGroup(): void;
}

export interface SkillGroups {
  log: Logger;
  /** The next log line opens a group named after `skill`. */
  next(skill: string): void;
  close(): void;
}

export function createSkillGroups(base: Logger, sink: GroupSink): SkillGroups {
  let pending: string | undefined;
  let open = false;
  const enter = () => {
    if (pending === undefined) return;
    if (open) sink.endGroup();
    sink.startGroup(pending);
    open = true;
    pending = undefined;
  };
  return {
    log: {
      info: (m) => (enter(), base.info(m)),
      warn: (m) => (enter(), base.warn(m)),
      progress: (m) => (enter(), base.progress(m)),
    },
    next(skill) {
      if (open) sink.endGroup();
      open = false;
      pending = skill;
    },
    close() {
      if (open) sink.endGroup();
      open = false;
      pending = undefined;
    },
  };
}

export interface SkillBoundaryHooks {
  /** After skill `index` of the queue finished (the engine is about to poll before the next one). */
  afterSkill(index: number): Promise<void>;
  /** Skill `index` is about to start (the poll said "not set"). */
  beforeSkill(index: number): void;
}

/** Wraps the kill-switch so its polls drive the per-skill hooks: poll 1 is the launch check. */
export function withSkillBoundaries(inner: KillSwitch, hooks: SkillBoundaryHooks): KillSwitch {
  let polls = 0;
  return {
    async check() {
      polls += 1;
      if (polls >= 2) await hooks.afterSkill(polls - 2);
      let reason: string | null;
      try {
        reason = await inner.check();
      } catch (error) {
        // An unreadable switch the run is told to ignore: the next skill still gets its group.
        hooks.beforeSkill(polls - 1);
        throw error;
      }
      if (reason === null) hooks.beforeSkill(polls - 1);
      return reason;
    },
  };
}
