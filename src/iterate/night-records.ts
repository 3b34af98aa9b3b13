/**
 * The run's side of the records kept between nights (docs/how-it-works.md § Baseline, § Decisions under
 * noise, "Uplift"): each is read through its port before a skill's loop and handed to the loop, and what
 * the loop drew tonight is written back after it. A record that cannot be read is said (naming where it
 * is) and left out: the night draws as when there is none and replaces it. A failed write is said; the
 * night goes on.
 */
import { messageOf } from '../core/errors.js';
import {
  formatBaselineDraws,
  parseBaselineDraws,
  type BaselineDrawsRecord,
} from '../core/iterate/baseline-draws-record.js';
import type { SkillLocation } from '../core/iterate/skill-layout.js';
import {
  formatUpliftRecord,
  parseUpliftRecord,
  type UpliftWithoutRecord,
} from '../core/iterate/uplift-record.js';
import type { IteratePorts } from '../ports/iterate.js';
import type { Logger } from '../ports/logger.js';
import type { RecordFiles } from '../ports/night-records.js';
import type { UpliftWithout } from './loop/types.js';

/** One kind of record: its file format and the words its messages use. */
interface RecordKind<R> {
  parse(text: string): R | undefined;
  format(record: R): string;
  /** "the stored draw without the skill could not be read (…); <storedUnreadable>" */
  stored: string;
  drawnAgain: string;
  /** "<source> is not a record of <subject> (expected <fields>); ignored: <replaced>" */
  subject: string;
  fields: string;
  replaced: string;
}

const UPLIFT: RecordKind<UpliftWithoutRecord> = {
  parse: parseUpliftRecord,
  format: formatUpliftRecord,
  stored: 'the stored draw without the skill',
  drawnAgain: 'it is drawn again',
  subject: 'the draw without the skill',
  fields: 'version, key, drawn_at and pairs',
  replaced: 'the draw is made again and replaces it',
};

const BASELINE_DRAWS: RecordKind<BaselineDrawsRecord> = {
  parse: parseBaselineDraws,
  format: formatBaselineDraws,
  stored: 'the stored baseline draws',
  drawnAgain: 'they are drawn again',
  subject: "the baseline's draws",
  fields: 'version and entries of key, drawn_at, structural and draws',
  replaced: 'the draws are made again and replace it',
};

type Ports = Pick<IteratePorts, 'log' | 'upliftRecords' | 'baselineDraws'>;

export function readUpliftRecord(
  ports: Ports,
  skill: SkillLocation,
): Promise<UpliftWithoutRecord | undefined> {
  return readRecord(UPLIFT, ports.upliftRecords, ports.log, skill);
}

export function readBaselineDraws(
  ports: Ports,
  skill: SkillLocation,
): Promise<BaselineDrawsRecord | undefined> {
  return readRecord(BASELINE_DRAWS, ports.baselineDraws, ports.log, skill);
}

/** Keeps the draw the loop made tonight; a reused one (or none) leaves the stored record as it is. */
export async function saveUpliftRecord(
  ports: Ports,
  skill: SkillLocation,
  without: UpliftWithout | undefined,
): Promise<void> {
  if (!without || without.reused) return;
  await saveRecord(UPLIFT, ports.upliftRecords, ports.log, skill, without.record);
}

/** Keeps the draws the loop kept tonight; none drawn tonight (or none at all) leaves the stored record. */
export async function saveBaselineDraws(
  ports: Ports,
  skill: SkillLocation,
  kept: BaselineDrawsRecord | undefined,
): Promise<void> {
  if (!kept) return;
  await saveRecord(BASELINE_DRAWS, ports.baselineDraws, ports.log, skill, kept);
}

async function readRecord<R>(
  kind: RecordKind<R>,
  files: RecordFiles | undefined,
  log: Logger,
  skill: SkillLocation,
): Promise<R | undefined> {
  let stored: { text: string; source: string } | undefined;
  try {
    stored = await files?.read(skill);
  } catch (err) {
    log.warn(`${skill.name}: ${kind.stored} could not be read (${messageOf(err)}); ${kind.drawnAgain}`);
    return undefined;
  }
  if (stored === undefined) return undefined;
  const record = kind.parse(stored.text);
  if (record === undefined) {
    log.warn(
      `${skill.name}: ${stored.source} is not a record of ${kind.subject} (expected ${kind.fields}); ` +
        `ignored: ${kind.replaced}`,
    );
  }
  return record;
}

async function saveRecord<R>(
  kind: RecordKind<R>,
  files: RecordFiles | undefined,
  log: Logger,
  skill: SkillLocation,
  record: R,
): Promise<void> {
  if (!files) return;
  try {
    await files.write(skill, kind.format(record));
  } catch (err) {
    log.warn(`${skill.name}: ${kind.subject} could not be kept for the next night: ${messageOf(err)}`);
  }
}
