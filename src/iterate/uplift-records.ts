/**
 * The run's side of the draw without the skill kept between nights (docs/how-it-works.md § Decisions under
 * noise, "Uplift"): read through the port before a skill's loop, handed to the loop, and the draw the loop
 * made written back after it. A record that cannot be read is said (naming where it is) and left out: the
 * night draws again and replaces it. A failed write is said; the night goes on.
 */
import { messageOf } from '../core/errors.js';
import type { SkillLocation } from '../core/iterate/skill-layout.js';
import {
  formatUpliftRecord,
  parseUpliftRecord,
  type UpliftWithoutRecord,
} from '../core/iterate/uplift-record.js';
import type { IteratePorts } from '../ports/iterate.js';
import type { UpliftWithout } from './loop/types.js';

type Ports = Pick<IteratePorts, 'log' | 'upliftRecords'>;

export async function readUpliftRecord(
  ports: Ports,
  skill: SkillLocation,
): Promise<UpliftWithoutRecord | undefined> {
  let stored: { text: string; source: string } | undefined;
  try {
    stored = await ports.upliftRecords?.read(skill);
  } catch (err) {
    ports.log.warn(
      `${skill.name}: the stored draw without the skill could not be read (${messageOf(err)}); it is drawn again`,
    );
    return undefined;
  }
  if (stored === undefined) return undefined;
  const record = parseUpliftRecord(stored.text);
  if (record === undefined) {
    ports.log.warn(
      `${skill.name}: ${stored.source} is not a record of the draw without the skill (expected version, ` +
        'key, drawn_at and pairs); ignored: the draw is made again and replaces it',
    );
  }
  return record;
}

/** Keeps the draw the loop made tonight; a reused one (or none) leaves the stored record as it is. */
export async function saveUpliftRecord(
  ports: Ports,
  skill: SkillLocation,
  without: UpliftWithout | undefined,
): Promise<void> {
  if (!ports.upliftRecords || !without || without.reused) return;
  try {
    await ports.upliftRecords.write(skill, formatUpliftRecord(without.record));
  } catch (err) {
    ports.log.warn(
      `${skill.name}: the draw without the skill could not be kept for the next night: ${messageOf(err)}`,
    );
  }
}
