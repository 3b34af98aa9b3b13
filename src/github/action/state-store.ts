/**
 * Durable run state across nights on fresh runners: an orphan branch (default `skill-iterate-state`) in the
 * same repository holding `state/<skill>/results.tsv`, `state/<skill>/last-run.json`,
 * `state/<skill>/uplift-without.json` and `state/<skill>/baseline-draws.json`. Before a run each skill's
 * history and records are restored into the checkout and freshness is read from `last_run_at` (a fresh checkout's
 * mtimes are all "now"); after each skill the updated files are committed in a separate worktree and pushed.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { redactSecrets, redactValue } from '../../core/text/redact.js';
import {
  RESULTS_FILE,
  BASELINE_DRAWS_FILE,
  UPLIFT_RECORD_FILE,
  baselineDrawsPath,
  resultsTsvPath,
  upliftRecordPath,
} from '../../core/iterate/skill-layout.js';
import { parseBaselineDraws } from '../../core/iterate/baseline-draws-record.js';
import { parseUpliftRecord } from '../../core/iterate/uplift-record.js';
import type { Freshness } from '../../ports/freshness.js';
import type { Logger } from '../../ports/logger.js';
import { fetchBranch, gitErrorMessage, gitWithIdentity, minimalGitEnv } from './git.js';
import { STATE_ROOT_PREFIX } from './state-branch-guard.js';
import {
  LAST_RUN_FILE,
  NOT_STARTED_PATH,
  STATE_DIR,
  formatLastRun,
  formatNotStarted,
  parseNotStarted,
  isPendingShipStatus,
  mergeResultsTsv,
  parseLastRun,
  parseStatePath,
  type LastRunRecord,
} from './state-files.js';

export interface SkillState {
  resultsTsv: string | undefined;
  lastRun: LastRunRecord | undefined;
  /**
   * `uplift-without.json`'s text (docs/how-it-works.md § Decisions under noise, "Uplift"), restored as it
   * is: the engine says so, naming the file, when it cannot read it, and draws again and replaces it.
   */
  upliftWithout?: string | undefined;
  /**
   * `baseline-draws.json`'s text (docs/how-it-works.md § Baseline), restored as it is like the uplift's:
   * the engine names an unreadable one in a warning and replaces it.
   */
  baselineDraws?: string | undefined;
}

/**
 * The records kept between nights that the state branch carries beside results.tsv (docs/how-it-works.md
 * § Baseline): each file's name, where the checkout keeps it, the SkillState field that holds its text, and
 * whether a text is a record (only a record is saved; the engine replaces anything else when it draws).
 */
export const RECORD_FILES = [
  {
    name: UPLIFT_RECORD_FILE,
    pathIn: upliftRecordPath,
    field: 'upliftWithout',
    isRecord: (text: string) => parseUpliftRecord(text) !== undefined,
  },
  {
    name: BASELINE_DRAWS_FILE,
    pathIn: baselineDrawsPath,
    field: 'baselineDraws',
    isRecord: (text: string) => parseBaselineDraws(text) !== undefined,
  },
] as const;

export interface StateSnapshot {
  branch: string;
  /** The branch tip that was read, '' when the branch does not exist yet. */
  tip: string;
  skills: Map<string, SkillState>;
  /** The skills last night's budget kept from starting (`state/not-started.json`), [] when none. */
  notStarted: string[];
}

export interface StateLocation {
  /** The checkout (any folder inside its repository). */
  project: string;
  branch: string;
  remote?: string;
}

/** Fetches the state branch and reads every skill's files. Read-only: safe for dry-run and plan mode. */
export async function readStateBranch(location: StateLocation): Promise<StateSnapshot> {
  const git = simpleGit(location.project);
  const tip = await fetchBranch(git, location.remote ?? 'origin', location.branch);
  const skills = new Map<string, SkillState>();
  if (!tip) return { branch: location.branch, tip, skills, notStarted: [] };
  const listing = await git.raw(['ls-tree', '-r', '--name-only', tip, '--', `${STATE_DIR}/`]);
  let notStarted: string[] = [];
  for (const file of listing.split('\n').filter(Boolean)) {
    if (file === NOT_STARTED_PATH) notStarted = parseNotStarted(await git.show([`${tip}:${file}`]));
    const parsed = parseStatePath(file);
    if (!parsed) continue;
    const [skill, name] = parsed;
    const entry = skills.get(skill) ?? { resultsTsv: undefined, lastRun: undefined };
    if (name === RESULTS_FILE) entry.resultsTsv = await git.show([`${tip}:${file}`]);
    else if (name === LAST_RUN_FILE) entry.lastRun = parseLastRun(await git.show([`${tip}:${file}`]));
    else {
      // A record is restored as it is: the engine reads it, and says so naming the file when it cannot.
      const record = RECORD_FILES.find((r) => r.name === name);
      if (!record) continue;
      entry[record.field] = await git.show([`${tip}:${file}`]);
    }
    skills.set(skill, entry);
  }
  return { branch: location.branch, tip, skills, notStarted };
}

/**
 * Freshness from the recorded `last_run_at`, never from file mtimes. A run whose ship failed to push does
 * not count: its improvement is not on a PR yet, so the next night runs the skill again.
 */
export function stateFreshness(snapshot: StateSnapshot): Freshness {
  return {
    async lastRunAt(skill) {
      const lastRun = snapshot.skills.get(skill.name)?.lastRun;
      const recorded = lastRun?.last_run_at;
      if (!recorded || isPendingShipStatus(lastRun.status)) return null;
      const at = new Date(recorded);
      return Number.isNaN(at.getTime()) ? null : at;
    },
  };
}

/** A new list of the skills not started, from the one on the branch. */
export type NotStartedChange = (current: readonly string[]) => string[];

/** Applies `change` to the worktree's `state/not-started.json`; returns the skills written. */
async function writeNotStarted(dir: string, change: NotStartedChange): Promise<string[]> {
  const file = path.join(dir, NOT_STARTED_PATH);
  const current = await readIfExists(file);
  const skills = change(current === undefined ? [] : parseNotStarted(current));
  if (skills.length === 0) {
    await rm(file, { force: true });
    return skills;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, formatNotStarted(skills));
  return skills;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes each recorded `results.tsv` into the skill's `evals/` folder in the checkout (`dirs`: name →
 * folder relative to the project, from the skills setting), so the engine appends to the full history, and
 * the recorded `uplift-without.json` and `baseline-draws.json` beside it, so the engine can reuse them. Skills no longer in the
 * checkout are left alone. Returns the skills whose results.tsv was restored.
 */
export async function restoreResults(
  snapshot: StateSnapshot,
  project: string,
  dirs: Readonly<Record<string, string>>,
): Promise<string[]> {
  const restored: string[] = [];
  for (const [skill, state] of [...snapshot.skills].sort(([a], [b]) => a.localeCompare(b))) {
    const dir = dirs[skill];
    if (dir === undefined) continue;
    const file = resultsTsvPath(project, { name: skill, dir });
    if (!(await isDirectory(path.dirname(file)))) continue;
    for (const record of RECORD_FILES) {
      const text = state[record.field];
      if (text !== undefined) await writeFile(record.pathIn(project, { name: skill, dir }), text);
    }
    if (state.resultsTsv === undefined) continue;
    const current = await readIfExists(file);
    await writeFile(
      file,
      current === undefined ? state.resultsTsv : mergeResultsTsv(state.resultsTsv, current),
    );
    restored.push(skill);
  }
  return restored;
}

export interface StateUpdate {
  skill: string;
  /** The checkout's whole `results.tsv`; undefined keeps what the branch has. */
  resultsTsv: string | undefined;
  /** undefined keeps what the branch has. */
  lastRun: LastRunRecord | undefined;
  /** Other files of the skill's state folder by name (e.g. the full text of a park report cut in its issue). */
  files?: Record<string, string>;
}

export type SaveOutcome = { status: 'pushed'; commit: string; attempts: number } | { status: 'unchanged' };

export interface StateStoreOptions extends StateLocation {
  /** Parent folder of the state worktree (`$RUNNER_TEMP` in the Action). */
  worktreeParent: string;
  log: Logger;
  /** Push attempts; a non-fast-forward (another job saved first) refetches and re-applies. Default 3. */
  maxPushAttempts?: number;
  /** Runs between the commit and its push: where a concurrent writer can get in (a seam for tests). */
  beforePush?: (attempt: number) => Promise<void>;
  /**
   * The secrets in use (token, keys): every file is redacted before it is committed (docs/how-it-works.md §
   * Untrusted text and secrets), as are credential-shaped strings. The branch is pushed and permanent.
   */
  secrets?: readonly string[];
}

export interface StateStore {
  readonly snapshot: StateSnapshot;
  readonly freshness: Freshness;
  restoreInto(project: string, dirs: Readonly<Record<string, string>>): Promise<string[]>;
  /**
   * `notStarted`, when given, rewrites `state/not-started.json` from what the branch holds at the save
   * (a retry after a race re-reads it); [] removes it.
   */
  save(updates: StateUpdate[], message: string, notStarted?: NotStartedChange): Promise<SaveOutcome>;
  close(): Promise<void>;
}

const isRaceRejection = (message: string) =>
  /non-fast-forward|fetch first|\[rejected\]|stale info|failed to update ref|cannot lock ref/i.test(message);

/** Reads the state branch once; the store then restores from that snapshot and saves over the branch. */
export async function openStateStore(options: StateStoreOptions): Promise<StateStore> {
  const snapshot = await readStateBranch(options);
  return new GitStateStore(options, snapshot, await gitWithIdentity(options.project));
}

/**
 * A save is a few steps, each a method: check out the branch tip (or a new root commit) in the store's own
 * worktree (`checkoutAt`, `rootCommit`), write the updates there (`applyUpdates`), commit and push
 * (`save`, retried when another job saved first), then fold what was pushed into the snapshot (`remember`).
 */
class GitStateStore implements StateStore {
  readonly freshness: Freshness;
  private readonly remote: string;
  private readonly maxAttempts: number;
  private worktree: string | undefined;

  constructor(
    private readonly options: StateStoreOptions,
    readonly snapshot: StateSnapshot,
    private readonly projectGit: SimpleGit,
  ) {
    this.remote = options.remote ?? 'origin';
    this.maxAttempts = Math.max(1, options.maxPushAttempts ?? 3);
    this.freshness = stateFreshness(snapshot);
  }

  restoreInto(project: string, dirs: Readonly<Record<string, string>>): Promise<string[]> {
    return restoreResults(this.snapshot, project, dirs);
  }

  async save(updates: StateUpdate[], message: string, notStarted?: NotStartedChange): Promise<SaveOutcome> {
    if (updates.length === 0 && notStarted === undefined) return { status: 'unchanged' };
    const { options, remote } = this;
    for (let attempt = 1; ; attempt++) {
      const tip = await fetchBranch(this.projectGit, remote, options.branch);
      const git = await this.checkoutAt(tip || (await this.rootCommit()));
      const written = await this.applyUpdates(this.worktree as string, updates);
      const skills = notStarted && (await writeNotStarted(this.worktree as string, notStarted));
      await git.raw(['add', '-A', '--', STATE_DIR]);
      const staged = (await git.raw(['diff', '--cached', '--name-only'])).trim();
      if (!staged) return { status: 'unchanged' };
      await git.raw(['commit', '--quiet', '--no-verify', '-m', message]);
      const commit = (await git.revparse(['HEAD'])).trim();
      await options.beforePush?.(attempt);
      try {
        // From the checkout, not the worktree: a relative remote URL resolves against the checkout.
        await this.projectGit.raw(['push', '--quiet', remote, `${commit}:refs/heads/${options.branch}`]);
      } catch (error) {
        const why = gitErrorMessage(error);
        if (attempt < this.maxAttempts && isRaceRejection(why)) {
          options.log.info(
            `state branch ${options.branch} moved during the push; re-applying (attempt ${attempt + 1})`,
          );
          continue;
        }
        throw new Error(`could not push ${options.branch} to ${remote}: ${why}`);
      }
      this.remember(updates, written, commit);
      if (skills) this.snapshot.notStarted = skills;
      return { status: 'pushed', commit, attempts: attempt };
    }
  }

  async close(): Promise<void> {
    if (!this.worktree) return;
    const dir = this.worktree;
    this.worktree = undefined;
    try {
      await this.projectGit.raw(['worktree', 'remove', '--force', dir]);
    } catch (error) {
      this.options.log.warn(`state worktree ${dir} could not be removed (${gitErrorMessage(error)})`);
    }
    await rm(dir, { recursive: true, force: true });
    await this.projectGit.raw(['worktree', 'prune']).catch(() => undefined);
  }

  /** The pushed files become the snapshot, so a later restore or freshness read sees this save. */
  private remember(updates: StateUpdate[], written: Map<string, string | undefined>, commit: string): void {
    for (const update of updates) {
      const entry = this.snapshot.skills.get(update.skill) ?? { resultsTsv: undefined, lastRun: undefined };
      const results = written.get(update.skill);
      if (results !== undefined) entry.resultsTsv = results;
      for (const record of RECORD_FILES) {
        const text = update.files?.[record.name];
        if (text !== undefined) entry[record.field] = this.redact(text);
      }
      if (update.lastRun !== undefined)
        entry.lastRun = redactValue(update.lastRun, this.options.secrets ?? []);
      this.snapshot.skills.set(update.skill, entry);
    }
    this.snapshot.tip = commit;
  }

  private redact(text: string): string {
    return redactSecrets(text, this.options.secrets ?? []);
  }

  private async rootCommit(): Promise<string> {
    const scratch = await mkdtemp(path.join(this.options.worktreeParent, 'skillclimb-state-index-'));
    try {
      const indexed = simpleGit(this.options.project).env(
        minimalGitEnv({ GIT_INDEX_FILE: path.join(scratch, 'index') }),
      );
      const emptyTree = (await indexed.raw(['write-tree'])).trim();
      return (
        await this.projectGit.raw([
          'commit-tree',
          emptyTree,
          '-m',
          `${STATE_ROOT_PREFIX}${this.options.branch})`,
        ])
      ).trim();
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private async checkoutAt(commit: string): Promise<SimpleGit> {
    if (!this.worktree) {
      await mkdir(this.options.worktreeParent, { recursive: true });
      this.worktree = await mkdtemp(path.join(this.options.worktreeParent, 'skillclimb-state-'));
      await this.projectGit.raw(['worktree', 'add', '--detach', '--force', this.worktree, commit]);
    } else {
      const git = simpleGit(this.worktree);
      await git.raw(['checkout', '--detach', '--force', commit]);
      await git.raw(['clean', '-fdxq']);
    }
    return gitWithIdentity(this.worktree);
  }

  private async applyUpdates(dir: string, updates: StateUpdate[]): Promise<Map<string, string | undefined>> {
    const written = new Map<string, string | undefined>();
    for (const update of updates) {
      const folder = path.join(dir, STATE_DIR, update.skill);
      await mkdir(folder, { recursive: true });
      let results: string | undefined;
      if (update.resultsTsv !== undefined) {
        const onBranch = (await readIfExists(path.join(folder, RESULTS_FILE))) ?? '';
        // Redacted before the merge, so a row equals its earlier (redacted) copy on the branch.
        results = mergeResultsTsv(onBranch, this.redact(update.resultsTsv));
        await writeFile(path.join(folder, RESULTS_FILE), results);
      }
      if (update.lastRun !== undefined) {
        const record = redactValue(update.lastRun, this.options.secrets ?? []);
        await writeFile(path.join(folder, LAST_RUN_FILE), formatLastRun(record));
      }
      for (const [name, text] of Object.entries(update.files ?? {})) {
        if (!/^[\w.-]+$/.test(name) || name === RESULTS_FILE || name === LAST_RUN_FILE) {
          throw new Error(`state file name ${JSON.stringify(name)}: expected a plain file name`);
        }
        await writeFile(path.join(folder, name), this.redact(text));
      }
      written.set(update.skill, results);
    }
    return written;
  }
}
