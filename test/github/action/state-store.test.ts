import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RESULTS_HEADER } from '../../../src/core/iterate/results-tsv.js';
import { mergeResultsTsv, type LastRunRecord } from '../../../src/github/action/state-files.js';
import {
  baselineDrawsPath,
  resultsTsvPath as resultsTsvAt,
  upliftRecordPath,
} from '../../../src/core/iterate/skill-layout.js';
import { formatBaselineDraws } from '../../../src/core/iterate/baseline-draws-record.js';
import { formatUpliftRecord } from '../../../src/core/iterate/uplift-record.js';
import { collectStateUpdates } from '../../../src/action/state-sync.js';

/** Skills in the default layout, by name. */
const at = (name: string) => ({ name, dir: `.claude/skills/${name}` });
const resultsTsvPath = (project: string, name: string) => resultsTsvAt(project, at(name));
const DIRS = { alpha: '.claude/skills/alpha', beta: '.claude/skills/beta', gone: '.claude/skills/gone' };
import { openStateStore, readStateBranch } from '../../../src/github/action/state-store.js';
import { exists } from '../../helpers/files.js';
import {
  actionsCheckout,
  cleanupTempDirs,
  git,
  hasObject,
  makeRemote,
  recordingLog,
  tempDir,
} from '../../helpers/github-fixtures.js';

const BRANCH = 'skill-iterate-state';
const TSV_A = `${RESULTS_HEADER}\naaaaaaa\t0.750000\tbaseline\tinitial baseline\t1.000\nbbbbbbb\t0.800000\tkeep\tedit\t2.000\n`;
const TSV_B = `${RESULTS_HEADER}\nccccccc\t0.500000\tbaseline\tinitial baseline\t1.000\n`;

function lastRun(skill: string, at: string, final: number | null = 0.8): LastRunRecord {
  return { skill, last_run_at: at, final_score: final, baseline_score: 0.75 };
}

async function project() {
  return makeRemote({
    '.claude/skills/alpha/SKILL.md': '# alpha\n',
    '.claude/skills/alpha/evals/evals.json': '{}\n',
    '.claude/skills/beta/SKILL.md': '# beta\n',
    '.claude/skills/beta/evals/evals.json': '{}\n',
  });
}

async function open(checkout: string, beforePush?: (attempt: number) => Promise<void>) {
  return openStateStore({
    project: checkout,
    branch: BRANCH,
    worktreeParent: await tempDir('skillclimb-runner-temp-'),
    log: recordingLog(),
    beforePush,
  });
}

async function clone(origin: string): Promise<string> {
  const dir = path.join(await tempDir(), 'clone');
  execFileSync('git', ['clone', '--quiet', origin, dir]);
  return dir;
}

afterEach(cleanupTempDirs);

describe('state branch store', () => {
  it('starts empty, then creates an orphan branch holding state/<skill>/ files', async () => {
    const { origin, checkout } = await project();
    const store = await open(checkout);
    expect(store.snapshot.tip).toBe('');
    expect(await store.freshness.lastRunAt(at('alpha'))).toBeNull();

    const saved = await store.save(
      [{ skill: 'alpha', resultsTsv: TSV_A, lastRun: lastRun('alpha', '2026-05-23T22:15:04.000Z') }],
      'state: alpha',
    );
    await store.close();

    expect(saved).toMatchObject({ status: 'pushed', attempts: 1 });
    const tip = git(origin, 'rev-parse', `refs/heads/${BRANCH}`);
    expect(git(origin, 'rev-list', '--parents', '-n', '1', tip).split(' ')).toHaveLength(2); // one parent: the orphan root
    expect(git(origin, 'rev-list', '--count', tip)).toBe('2');
    expect(git(origin, 'ls-tree', '-r', '--name-only', tip).split('\n')).toEqual([
      'state/alpha/last-run.json',
      'state/alpha/results.tsv',
    ]);
    expect(git(origin, 'show', `${tip}:state/alpha/results.tsv`)).toBe(TSV_A.trimEnd());
    expect(JSON.parse(git(origin, 'show', `${tip}:state/alpha/last-run.json`))).toMatchObject({
      last_run_at: '2026-05-23T22:15:04.000Z',
      final_score: 0.8,
    });
    // The base branch and the checkout are untouched; the worktree is gone.
    expect(git(checkout, 'status', '--porcelain')).toBe('');
    expect(git(checkout, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(git(origin, 'rev-list', '--count', 'main')).toBe('1');
  });

  it('on a fresh checkout restores results.tsv and reads freshness from last_run_at, not mtimes', async () => {
    const { origin, checkout } = await project();
    const first = await open(checkout);
    await first.save(
      [
        { skill: 'alpha', resultsTsv: TSV_A, lastRun: lastRun('alpha', '2026-05-23T22:15:04.000Z') },
        { skill: 'gone', resultsTsv: TSV_B, lastRun: lastRun('gone', '2026-05-20T00:00:00.000Z') },
      ],
      'state',
    );
    await first.close();

    const fresh = await clone(origin);
    const store = await open(fresh);
    const restored = await store.restoreInto(fresh, DIRS);
    await store.close();

    expect(restored).toEqual(['alpha']); // `gone` has no skill folder in this checkout
    expect(await readFile(resultsTsvPath(fresh, 'alpha'), 'utf8')).toBe(TSV_A);
    expect(await exists(resultsTsvPath(fresh, 'gone'))).toBe(false);
    expect((await store.freshness.lastRunAt(at('alpha')))?.toISOString()).toBe('2026-05-23T22:15:04.000Z');
    expect(await store.freshness.lastRunAt(at('beta'))).toBeNull();
  });

  it('keeps state/not-started.json: a change applied to the record as the branch has it, retried on a race, [] removing it', async () => {
    const { origin, checkout } = await project();
    const other = await clone(origin);
    const a = await open(checkout);
    await a.save([], 'budget', () => ['beta', 'gamma', 'delta']);
    expect(a.snapshot.notStarted).toEqual(['beta', 'gamma', 'delta']);
    // Two jobs read the record at once; each takes out the skill it started. B's first push loses the race
    // to A's save: B applies its change again to what A saved, and neither undoes the other.
    const b = await open(other, async (attempt) => {
      if (attempt === 1) await a.save([], 'a', (current) => current.filter((s) => s !== 'beta'));
    });
    expect(b.snapshot.notStarted).toEqual(['beta', 'gamma', 'delta']);
    expect(await b.save([], 'b', (current) => current.filter((s) => s !== 'gamma'))).toMatchObject({
      status: 'pushed',
      attempts: 2,
    });
    expect((await readStateBranch({ project: await clone(origin), branch: BRANCH })).notStarted).toEqual([
      'delta',
    ]);
    await b.save([], 'cleared', () => []);
    await a.close();
    await b.close();
    const cleared = await readStateBranch({ project: await clone(origin), branch: BRANCH });
    expect(cleared.notStarted).toEqual([]);
  });

  it('re-applies its update on top of a concurrent save instead of losing either (non-fast-forward retry)', async () => {
    const { origin, checkout } = await project();
    const other = await clone(origin);
    const a = await open(checkout);
    // B has committed on the old tip when A's save lands: B's first push is a non-fast-forward.
    const b = await open(other, async (attempt) => {
      if (attempt === 1) {
        await a.save(
          [{ skill: 'alpha', resultsTsv: TSV_A, lastRun: lastRun('alpha', '2026-05-23T01:00:00.000Z') }],
          'a',
        );
      }
    });

    expect(
      await b.save(
        [{ skill: 'beta', resultsTsv: TSV_B, lastRun: lastRun('beta', '2026-05-23T02:00:00.000Z') }],
        'b',
      ),
    ).toMatchObject({ status: 'pushed', attempts: 2 });
    await a.close();
    await b.close();

    const snapshot = await readStateBranch({ project: await clone(origin), branch: BRANCH });
    expect([...snapshot.skills.keys()].sort()).toEqual(['alpha', 'beta']);
    expect(snapshot.skills.get('alpha')?.resultsTsv).toBe(TSV_A);
    expect(snapshot.skills.get('beta')?.lastRun?.last_run_at).toBe('2026-05-23T02:00:00.000Z');
  });

  it('keeps rows another run recorded for the same skill, and reports an unchanged save', async () => {
    const { origin, checkout } = await project();
    const other = await clone(origin);
    const extraRow = 'ddddddd\t0.900000\tkeep\tanother run\t3.000\n';
    const a = await open(checkout);
    const b = await open(other, async (attempt) => {
      if (attempt === 1) {
        await a.save(
          [
            {
              skill: 'alpha',
              resultsTsv: TSV_A + extraRow,
              lastRun: lastRun('alpha', '2026-05-23T01:00:00.000Z'),
            },
          ],
          'a',
        );
      }
    });
    const ours = `${TSV_A}eeeeeee\t0.850000\tkeep\tours\t1.000\n`;
    await b.save(
      [{ skill: 'alpha', resultsTsv: ours, lastRun: lastRun('alpha', '2026-05-23T02:00:00.000Z') }],
      'b',
    );
    const again = await b.save(
      [{ skill: 'alpha', resultsTsv: ours, lastRun: lastRun('alpha', '2026-05-23T02:00:00.000Z') }],
      'b again',
    );
    await a.close();
    await b.close();

    expect(again).toEqual({ status: 'unchanged' });
    const text = git(origin, 'show', `${BRANCH}:state/alpha/results.tsv`);
    expect(text.split('\n')).toEqual([
      ...TSV_A.trimEnd().split('\n'),
      extraRow.trimEnd(),
      'eeeeeee\t0.850000\tkeep\tours\t1.000',
    ]);
  });

  it('on depth-1 checkouts fetches only the state tip, saves on top of earlier nights and retries a race', async () => {
    const { origin, checkout } = await makeRemote(
      { '.claude/skills/alpha/SKILL.md': '# alpha\n', '.claude/skills/alpha/evals/evals.json': '{}\n' },
      { earlierCommits: 2, checkout: 'actions' },
    );
    const night1 = await open(checkout);
    await night1.save(
      [{ skill: 'alpha', resultsTsv: TSV_A, lastRun: lastRun('alpha', '2026-05-22T01:00:00.000Z') }],
      'night 1: alpha',
    );
    await night1.save(
      [{ skill: 'beta', resultsTsv: TSV_B, lastRun: lastRun('beta', '2026-05-22T02:00:00.000Z') }],
      'night 1: beta',
    );
    await night1.close();
    const [night1Tip, night1First] = git(origin, 'rev-list', BRANCH).split('\n');

    // Night 2: two matrix jobs, each on its own fresh default checkout; B's first push loses the race.
    const checkoutA = actionsCheckout(origin, path.join(await tempDir(), 'a'));
    const checkoutB = actionsCheckout(origin, path.join(await tempDir(), 'b'));
    const a = await open(checkoutA);
    const b = await open(checkoutB, async (attempt) => {
      if (attempt === 1) {
        await a.save(
          [
            {
              skill: 'alpha',
              resultsTsv: TSV_A + 'ddddddd\t0.900000\tkeep\ta\t1.000\n',
              lastRun: lastRun('alpha', '2026-05-23T01:00:00.000Z'),
            },
          ],
          'night 2: alpha',
        );
      }
    });
    expect(await b.restoreInto(checkoutB, DIRS)).toEqual(['alpha']);
    expect(await readFile(resultsTsvPath(checkoutB, 'alpha'), 'utf8')).toBe(TSV_A);
    const saved = await b.save(
      [{ skill: 'beta', resultsTsv: TSV_B, lastRun: lastRun('beta', '2026-05-23T02:00:00.000Z') }],
      'night 2: beta',
    );
    await a.close();
    await b.close();

    expect(saved).toMatchObject({ status: 'pushed', attempts: 2 });
    const history = git(origin, 'rev-list', '--first-parent', BRANCH).split('\n');
    expect(history.slice(2)).toEqual(git(origin, 'rev-list', night1Tip!).split('\n'));
    expect(git(origin, 'show', `${BRANCH}:state/alpha/results.tsv`)).toContain('\ta\t1.000');
    expect(JSON.parse(git(origin, 'show', `${BRANCH}:state/beta/last-run.json`))).toMatchObject({
      last_run_at: '2026-05-23T02:00:00.000Z',
    });
    for (const dir of [checkoutA, checkoutB]) {
      expect(git(dir, 'rev-parse', '--is-shallow-repository')).toBe('true');
      expect(hasObject(dir, night1First!)).toBe(false);
      expect(hasObject(dir, git(origin, 'rev-parse', 'main~1'))).toBe(false);
    }
  });

  it('carries uplift-without.json: collected from the checkout, restored into a fresh one; an unreadable one is restored for the engine to name and replace', async () => {
    const { origin, checkout } = await project();
    const record = formatUpliftRecord({
      key: 'b'.repeat(64),
      drawnAt: '2026-05-23T01:00:00.000Z',
      pairs: [{ scenarioId: 's1', assertionId: 1, pass: false }],
    });
    await writeFile(resultsTsvPath(checkout, 'alpha'), TSV_A);
    await writeFile(upliftRecordPath(checkout, at('alpha')), record);
    await writeFile(upliftRecordPath(checkout, at('beta')), '{"version": 1, "key": "trunc');
    const store = await open(checkout);
    const sync = { project: checkout, dirs: DIRS, store, runId: undefined, runUrl: undefined };
    const now = new Date('2026-05-23T02:00:00.000Z');
    const updates = await collectStateUpdates(sync, ['alpha', 'beta'], now);
    expect(updates.map((u) => [u.skill, u.files])).toEqual([['alpha', { 'uplift-without.json': record }]]);
    await store.save(updates, 'alpha');
    // Saved: nothing left to collect.
    expect(await collectStateUpdates(sync, ['alpha', 'beta'], now)).toEqual([]);
    // An unreadable record on the branch (written by hand, say) is restored as it is: the engine names it
    // in a warning and draws again (test/iterate/uplift-reuse.test.ts).
    await store.save(
      [{ skill: 'beta', resultsTsv: TSV_B, lastRun: undefined, files: { 'uplift-without.json': 'garbage' } }],
      'beta',
    );
    await store.close();
    expect(git(origin, 'show', `${BRANCH}:state/alpha/uplift-without.json`)).toBe(record.trimEnd());

    const fresh = await clone(origin);
    const snapshot = await readStateBranch({ project: fresh, branch: BRANCH });
    expect(snapshot.skills.get('alpha')?.upliftWithout).toBe(record);
    expect(snapshot.skills.get('beta')?.upliftWithout).toBe('garbage');
    const reopened = await open(fresh);
    await reopened.restoreInto(fresh, DIRS);
    await reopened.close();
    expect(await readFile(upliftRecordPath(fresh, at('alpha')), 'utf8')).toBe(record);
    expect(await readFile(upliftRecordPath(fresh, at('beta')), 'utf8')).toBe('garbage');
  });

  it('carries baseline-draws.json: collected from the checkout (alone when results.tsv is unchanged), restored into a fresh one; an unreadable one is restored for the engine to name and replace', async () => {
    const { origin, checkout } = await project();
    const record = formatBaselineDraws({
      entries: [
        {
          key: 'c'.repeat(64),
          drawnAt: '2026-05-23T01:00:00.000Z',
          structural: 0.9,
          draws: [{ score: 0.5, allPass: false, pairs: [{ scenarioId: 's1', assertionId: 1, pass: true }] }],
        },
      ],
    });
    await writeFile(resultsTsvPath(checkout, 'alpha'), TSV_A);
    const store = await open(checkout);
    const sync = { project: checkout, dirs: DIRS, store, runId: undefined, runUrl: undefined };
    const now = new Date('2026-05-23T02:00:00.000Z');
    await store.save(await collectStateUpdates(sync, ['alpha'], now), 'alpha');
    // results.tsv already saved: the record alone is an update.
    await writeFile(baselineDrawsPath(checkout, at('alpha')), record);
    await writeFile(baselineDrawsPath(checkout, at('beta')), '{"version": 1, "entries": [');
    const updates = await collectStateUpdates(sync, ['alpha', 'beta'], now);
    expect(updates.map((u) => [u.skill, u.resultsTsv, u.files])).toEqual([
      ['alpha', undefined, { 'baseline-draws.json': record }],
    ]);
    await store.save(updates, 'alpha');
    expect(await collectStateUpdates(sync, ['alpha', 'beta'], now)).toEqual([]);
    await store.save(
      [{ skill: 'beta', resultsTsv: TSV_B, lastRun: undefined, files: { 'baseline-draws.json': 'garbage' } }],
      'beta',
    );
    await store.close();
    expect(git(origin, 'show', `${BRANCH}:state/alpha/baseline-draws.json`)).toBe(record.trimEnd());

    const fresh = await clone(origin);
    const snapshot = await readStateBranch({ project: fresh, branch: BRANCH });
    expect(snapshot.skills.get('alpha')?.baselineDraws).toBe(record);
    expect(snapshot.skills.get('beta')?.baselineDraws).toBe('garbage');
    const reopened = await open(fresh);
    await reopened.restoreInto(fresh, DIRS);
    await reopened.close();
    expect(await readFile(baselineDrawsPath(fresh, at('alpha')), 'utf8')).toBe(record);
    expect(await readFile(baselineDrawsPath(fresh, at('beta')), 'utf8')).toBe('garbage');
  });

  it('merges a results.tsv the checkout already has with the recorded one on restore', async () => {
    const { checkout } = await project();
    const store = await open(checkout);
    await store.save(
      [{ skill: 'alpha', resultsTsv: TSV_A, lastRun: lastRun('alpha', '2026-05-23T01:00:00.000Z') }],
      'a',
    );
    await mkdir(path.dirname(resultsTsvPath(checkout, 'beta')), { recursive: true });
    await writeFile(
      resultsTsvPath(checkout, 'alpha'),
      `${RESULTS_HEADER}\nfffffff\t0.100000\tbaseline\tlocal\t1.000\n`,
    );
    await store.restoreInto(checkout, DIRS);
    await store.close();
    expect(await readFile(resultsTsvPath(checkout, 'alpha'), 'utf8')).toBe(
      `${TSV_A}fffffff\t0.100000\tbaseline\tlocal\t1.000\n`,
    );
  });
});

describe('mergeResultsTsv', () => {
  it('returns the longer text when one extends the other', () => {
    expect(mergeResultsTsv(TSV_A, '')).toBe(TSV_A);
    expect(mergeResultsTsv('', TSV_A)).toBe(TSV_A);
    const longer = `${TSV_A}x\t0.1\tkeep\ty\t1.000\n`;
    expect(mergeResultsTsv(TSV_A, longer)).toBe(longer);
    expect(mergeResultsTsv(longer, TSV_A)).toBe(longer);
  });

  it('appends the other side’s missing rows once, without a second header', () => {
    const merged = mergeResultsTsv(TSV_A, TSV_B);
    expect(merged.split('\n').filter((l) => l === RESULTS_HEADER)).toHaveLength(1);
    expect(merged).toBe(`${TSV_A}ccccccc\t0.500000\tbaseline\tinitial baseline\t1.000\n`);
    expect(mergeResultsTsv(merged, TSV_B)).toBe(merged);
  });
});
