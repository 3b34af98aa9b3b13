/**
 * The run's side of the baseline's draws kept between nights (docs/how-it-works.md § Baseline): read
 * through the port before a skill's loop, handed to the loop, and the draws the loop kept written back
 * after it. A record that cannot be read is said (naming where it is) and left out: the night draws as
 * when there is none and replaces it. A failed write is said; the night goes on.
 */
import { messageOf } from '../core/errors.js';
import {
  formatBaselineDraws,
  parseBaselineDraws,
  type BaselineDrawsRecord,
} from '../core/iterate/baseline-draws-record.js';
import type { SkillLocation } from '../core/iterate/skill-layout.js';
import type { IteratePorts } from '../ports/iterate.js';
import type { KeptDraws } from './loop/types.js';

type Ports = Pick<IteratePorts, 'log' | 'baselineDraws'>;

export async function readBaselineDraws(
  ports: Ports,
  skill: SkillLocation,
): Promise<BaselineDrawsRecord | undefined> {
  let stored: { text: string; source: string } | undefined;
  try {
    stored = await ports.baselineDraws?.read(skill);
  } catch (err) {
    ports.log.warn(
      `${skill.name}: the stored baseline draws could not be read (${messageOf(err)}); they are drawn again`,
    );
    return undefined;
  }
  if (stored === undefined) return undefined;
  const record = parseBaselineDraws(stored.text);
  if (record === undefined) {
    ports.log.warn(
      `${skill.name}: ${stored.source} is not a record of the baseline's draws (expected version and ` +
        'entries of key, drawn_at, structural and draws); ignored: the draws are made again and replace it',
    );
  }
  return record;
}

/** Keeps the draws the loop kept tonight; none drawn tonight (or none at all) leaves the stored record. */
export async function saveBaselineDraws(
  ports: Ports,
  skill: SkillLocation,
  kept: KeptDraws | undefined,
): Promise<void> {
  if (!ports.baselineDraws || !kept) return;
  try {
    await ports.baselineDraws.write(skill, formatBaselineDraws(kept.record));
  } catch (err) {
    ports.log.warn(
      `${skill.name}: the baseline's draws could not be kept for the next night: ${messageOf(err)}`,
    );
  }
}
