/**
 * Log groups per skill around ONE engine run, opened and closed on the engine's skill-started and
 * skill-finished events (src/action/night-events.ts). A group opens lazily with its first log line, so a
 * skill that logs nothing leaves no empty group behind.
 */
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
