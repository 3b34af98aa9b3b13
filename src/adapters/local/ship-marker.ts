/**
 * The interrupted-ship marker (docs/how-it-works.md § Shipping): `<git common dir>/skillclimb/ship.json`,
 * written (atomically: temporary file, fsync, rename) before the local ship moves the checked-out branch,
 * removed once the checkout is up to date. A run killed in between leaves it behind; the next run reads it
 * under the repository lock, before its pre-flight decides anything, and finishes or forgets the landing —
 * touching only the paths the marker names, and only while they still hold what the ship left there.
 */
import { open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { checkoutPaths, pathsMatch } from '../../git/squash.js';
import { headCommit } from '../../git/worktree.js';
import { repoStateDir } from './repo-lock.js';
import { messageOf } from '../../core/errors.js';

export const SHIP_MARKER_FILE = 'ship.json';
export const SHIP_MARKER_FORMAT = 'skillclimb/interrupted-ship';
/** Scratch folders of a landing (temporary index and patch): `<state dir>/scratch-<pid>-<n>`. */
export const SCRATCH_PREFIX = 'scratch-';

const ShipMarkerSchema = z.object({
  format: z.literal(SHIP_MARKER_FORMAT),
  version: z.literal(1),
  pid: z.number().int(),
  host: z.string(),
  started_at: z.string(),
  /** The checkout root whose branch, index and working tree the ship updates. */
  checkout: z.string(),
  skill: z.string(),
  /** The run branch and its worktree (kept: the work is there if the ship is forgotten). */
  branch: z.string(),
  worktree: z.string(),
  /** The checked-out branch's commit before the ship, and the squash commit it moves to. */
  parent: z.string().regex(/^[0-9a-f]{40,64}$/),
  commit: z.string().regex(/^[0-9a-f]{40,64}$/),
  /** Repository-relative paths the ship changes in the index and working tree. */
  paths: z.array(z.string()),
});
export type ShipMarker = z.infer<typeof ShipMarkerSchema>;

export function shipMarkerPath(commonDir: string): string {
  return path.join(repoStateDir(commonDir), SHIP_MARKER_FILE);
}

export function newShipMarker(
  fields: Omit<ShipMarker, 'format' | 'version' | 'pid' | 'host' | 'started_at'>,
): ShipMarker {
  return {
    format: SHIP_MARKER_FORMAT,
    version: 1,
    pid: process.pid,
    host: os.hostname(),
    started_at: new Date().toISOString(),
    ...fields,
  };
}

/** Written so it is either absent or complete: a kill -9 while writing leaves no torn marker. */
export async function writeShipMarker(commonDir: string, marker: ShipMarker): Promise<void> {
  const file = shipMarkerPath(commonDir);
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(marker, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

export async function removeShipMarker(commonDir: string): Promise<void> {
  await rm(shipMarkerPath(commonDir), { force: true });
}

/** The marker, or undefined when there is none; one that does not parse is reported and removed. */
async function readShipMarker(
  commonDir: string,
): Promise<{ marker: ShipMarker } | { unreadable: string } | undefined> {
  let text: string;
  try {
    text = await readFile(shipMarkerPath(commonDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return { marker: ShipMarkerSchema.parse(JSON.parse(text)) };
  } catch (err) {
    return { unreadable: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
}

/** Scratch folders and half-written markers a killed landing left in the state folder. */
async function scratchLeftovers(commonDir: string): Promise<string[]> {
  const dir = repoStateDir(commonDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .filter(
      (n) => n.startsWith(SCRATCH_PREFIX) || (n.startsWith(`${SHIP_MARKER_FILE}.`) && n.endsWith('.tmp')),
    )
    .map((n) => path.join(dir, n));
}

/** What `find` reports: the interrupted ship, in one line, without touching anything. */
export async function describeLeftovers(commonDir: string): Promise<string[]> {
  const found = await readShipMarker(commonDir);
  const lines: string[] = [];
  if (found && 'marker' in found) {
    const m = found.marker;
    lines.push(
      `an interrupted ship of ${m.skill} (PID ${m.pid}, started ${m.started_at}) left ${shipMarkerPath(commonDir)}`,
    );
  } else if (found) {
    lines.push(`an unreadable interrupted-ship marker ${shipMarkerPath(commonDir)} (${found.unreadable})`);
  }
  const scratch = await scratchLeftovers(commonDir);
  if (scratch.length > 0) lines.push(`temporary files of an interrupted ship: ${scratch.join(', ')}`);
  return lines;
}

/**
 * Finishes or forgets an interrupted landing. Call while holding the repository lock (so no live landing
 * is in progress in this repository). Resolves one line per thing it did, for the operator.
 *
 * - The branch still at `parent`: nothing was applied (the index and working tree are only updated after
 *   the branch moved); the marker goes and the checkout is untouched.
 * - The branch at `commit`: the squash landed; the skill's paths are brought up to `commit` if they still
 *   hold `parent`'s version (the kill came between the two steps), left alone if they hold anything else.
 * - Anything else: the branch moved on since; nothing is touched.
 */
export async function cleanLeftovers(commonDir: string): Promise<string[]> {
  const lines: string[] = [];
  for (const file of await scratchLeftovers(commonDir)) {
    await rm(file, { recursive: true, force: true });
    lines.push(`removed ${file}, left by an interrupted ship`);
  }
  const found = await readShipMarker(commonDir);
  if (found === undefined) return lines;
  const markerFile = shipMarkerPath(commonDir);
  if ('unreadable' in found) {
    await unlink(markerFile).catch(() => undefined);
    lines.push(`removed the unreadable interrupted-ship marker ${markerFile} (${found.unreadable})`);
    return lines;
  }
  const m = found.marker;
  const what = `the ship of ${m.skill} interrupted at ${m.started_at} (PID ${m.pid})`;
  let head: string;
  try {
    head = await headCommit(m.checkout);
  } catch (err) {
    await removeShipMarker(commonDir);
    lines.push(`${what}: its checkout ${m.checkout} cannot be read (${messageOf(err)}); marker removed`);
    return lines;
  }
  if (head === m.parent) {
    lines.push(
      `${what}: nothing had been applied to ${m.checkout}; the checkout is as it was. The kept edits are on ` +
        `branch ${m.branch} (worktree ${m.worktree})`,
    );
  } else if (head === m.commit) {
    if (await pathsMatch(m.checkout, m.commit, m.paths)) {
      lines.push(`${what}: it had completed (${m.commit.slice(0, 7)})`);
    } else if (await pathsMatch(m.checkout, m.parent, m.paths)) {
      await checkoutPaths(m.checkout, m.commit, m.paths);
      lines.push(
        `${what}: the squash commit ${m.commit.slice(0, 7)} had landed; brought ${m.paths.join(', ')} in ` +
          `the index and working tree up to it`,
      );
    } else {
      lines.push(
        `${what}: ${m.paths.join(', ')} changed since; left as they are (compare with ${m.commit.slice(0, 7)})`,
      );
    }
  } else {
    lines.push(`${what}: ${m.checkout} has moved on to ${head.slice(0, 7)} since; nothing touched`);
  }
  await removeShipMarker(commonDir);
  return lines;
}
