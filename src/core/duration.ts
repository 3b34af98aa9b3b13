/** Durations as the operator types them: `1h`, `30m`, `90s`, `1h30m`, `1h30m15s`. */
import { SkillclimbError } from './errors.js';

const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

export class DurationError extends SkillclimbError {
  readonly kind = 'usage';
  override name = 'DurationError';
}

/** Parses `1h`, `30m`, `90s`, `1h30m` (units in h, m, s order, each at most once) into milliseconds. */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  const m = DURATION.exec(trimmed);
  if (!trimmed || !m) {
    throw new DurationError(
      `"${text}" is not a duration; use hours, minutes and seconds like 1h, 30m, 90s or 1h30m`,
    );
  }
  const [hours, minutes, seconds] = [m[1], m[2], m[3]].map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
  ];
  const ms = ((hours * 60 + minutes) * 60 + seconds) * 1000;
  if (ms <= 0) throw new DurationError(`"${text}" is zero; a duration must be longer than 0s`);
  return ms;
}

/** The shortest `XhYmZs` form of a duration (whole seconds), e.g. 5400000 → `1h30m`. */
export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const out = `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${seconds ? `${seconds}s` : ''}`;
  return out || '0s';
}
