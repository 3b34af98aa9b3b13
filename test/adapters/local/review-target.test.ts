/** The local review target and store against real git repositories. */
import { execFileSync } from 'node:child_process';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalReviewStore } from '../../../src/adapters/local/review-store.js';
import { createLocalReviewTarget, resolveBaseRef } from '../../../src/adapters/local/review-target.js';
import { createReadOnlyTools } from '../../../src/review/verifier-tools.js';
import { git, makeReviewRepo, removeReviewDirs } from '../../helpers/review-fixtures.js';
import { tempDirs } from '../../helpers/temp-dirs.js';

const temp = tempDirs('skillclimb-review-remote-', { resolveLinks: true });
afterEach(async () => {
  await removeReviewDirs();
  await temp.removeAll();
});

async function target(dir: string, paths: string[] = []) {
  return createLocalReviewTarget({
    repoRoot: dir,
    project: dir,
    paths,
    baseRef: await resolveBaseRef(dir, undefined),
    claimsFile: undefined,
    allowDirty: false,
  });
}

describe('the base of the change', () => {
  it('prefers the remote’s default branch, then main, then master; --base must exist', async () => {
    const dir = await makeReviewRepo();
    expect(await resolveBaseRef(dir, undefined)).toBe('main');
    const bare = await temp.make();
    execFileSync('git', ['clone', '-q', '--bare', dir, bare]);
    git(bare, 'branch', '-q', '-m', 'main', 'trunk');
    git(bare, 'symbolic-ref', 'HEAD', 'refs/heads/trunk');
    git(dir, 'remote', 'add', 'origin', bare);
    git(dir, 'fetch', '-q', 'origin');
    git(dir, 'remote', 'set-head', 'origin', '--auto');
    expect(await resolveBaseRef(dir, undefined)).toBe('origin/trunk');
    expect(await resolveBaseRef(dir, 'main')).toBe('main');
    await expect(resolveBaseRef(dir, 'nope')).rejects.toThrow('--base nope: no such branch or commit');
  });
});

describe('reading the change at a commit', () => {
  it('reports links as links, finds text, lists folders, and never shows the loop’s own records', async () => {
    const dir = await makeReviewRepo();
    await symlink('../README.md', path.join(dir, 'src', 'link.md'));
    await writeFile(path.join(dir, 'src', 'blob.bin'), Buffer.from([0, 1, 2, 3]));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'link and binary');
    await createLocalReviewStore(dir).appendLog('# log\n');
    const t = await target(dir);
    const { base, head } = await t.resolve();

    expect((await t.filesUnderReview(base, head)).sort()).toEqual([
      'src/blob.bin',
      'src/calc.ts',
      'src/link.md',
    ]);
    expect(await t.readFile('src/link.md', head, 1000)).toEqual({ kind: 'symlink' });
    expect(await t.readFile('src/blob.bin', head, 1000)).toEqual({ kind: 'binary', bytes: 4 });
    expect(await t.readFile('src', head, 1000)).toEqual({ kind: 'folder' });
    expect(await t.readFile('src/calc.ts', head, 20)).toMatchObject({ kind: 'file', truncated: true });
    expect(await t.listFolder('src', head)).toEqual(
      expect.arrayContaining([
        { name: 'calc.ts', kind: 'file' },
        { name: 'link.md', kind: 'symlink' },
      ]),
    );
    expect(await t.listFolder('src/calc.ts', head)).toBeUndefined();
    expect(await t.searchText('n / 3', head, { maxHits: 10 })).toEqual([
      { path: 'src/calc.ts', line: 6, text: '  return n / 3;' },
    ]);
    expect(await t.searchText('no such text anywhere', head, { maxHits: 10 })).toEqual([]);
    // a file name that looks like pathspec magic is just a name
    expect(await t.readFile(':(glob)**/calc.ts', head, 1000)).toEqual({ kind: 'missing' });
    const diff = await t.diff(base, head, 100_000);
    expect(diff.text).toContain('+  return n / 3;');
    expect(diff.text).not.toContain('review-stage');
  });

  it('narrowed to a path the branch did not change, reviews that path’s files themselves', async () => {
    const dir = await makeReviewRepo();
    const t = await target(dir, ['README.md']);
    const { base, head } = await t.resolve();
    expect(await t.filesUnderReview(base, head)).toEqual(['README.md']);
    expect((await t.diff(base, head, 1000)).text).toBe('');
  });

  it('bounds the verifier’s tools in calls and bytes', async () => {
    const dir = await makeReviewRepo();
    const t = await target(dir);
    const { head } = await t.resolve();
    const tools = createReadOnlyTools(t, head, { maxToolCalls: 3, maxToolBytes: 40 });
    const first = await tools.readFile('src/calc.ts');
    expect(first).toContain('[… cut: the tool output budget of 40 bytes is spent]');
    expect(await tools.listFolder('')).toMatch(/^Tool budget spent/);
    const fresh = createReadOnlyTools(t, head, { maxToolCalls: 2, maxToolBytes: 10_000 });
    expect(await fresh.readFile('/etc/passwd')).toBe('Refused: absolute paths are refused.');
    expect(await fresh.listFolder('review-stage')).toMatch(/^Refused: review-stage\/ is not readable/);
    expect(await fresh.searchText('half')).toMatch(/^Tool budget spent \(2 calls/);
  });
});

describe('the local store', () => {
  it('appends receipts as whole lines, even after a foreign line without its newline', async () => {
    const dir = await makeReviewRepo();
    const store = createLocalReviewStore(dir);
    await store.appendLog('x');
    await writeFile(
      path.join(dir, 'review-stage', 'ACQUITTAL_LOG.jsonl'),
      '{"run_id":"run_20260101_00000000"}',
    );
    const receipt = {
      run_id: 'run_20260713_a1b2c3d4',
      round: 1,
      backend: 'anthropic',
      effort: 'high-rigor',
      verdict: 'ready' as const,
      score: 7,
      trace_id: 't',
      timestamp: 'now',
      difficulty: 'medium' as const,
      reviewer_model: 'a',
      reviewer_family: 'anthropic',
      executor_model: 'b',
      executor_family: 'openai',
      family_relation: 'different' as const,
      head: 'h',
    };
    await store.appendReceipt(receipt);
    const text = await readFile(path.join(dir, 'review-stage', 'ACQUITTAL_LOG.jsonl'), 'utf8');
    expect(text).toBe(`{"run_id":"run_20260101_00000000"}\n${JSON.stringify(receipt)}\n`);
    expect((await store.readReceipts()).map((r) => r.run_id)).toEqual([
      'run_20260101_00000000',
      'run_20260713_a1b2c3d4',
    ]);
  });

  it('reads a legacy state at the project root, and refuses trace names that are paths', async () => {
    const dir = await makeReviewRepo();
    await writeFile(path.join(dir, 'REVIEW_STATE.json'), JSON.stringify({ status: 'in_progress', round: 2 }));
    const store = createLocalReviewStore(dir);
    expect(await store.readState()).toMatchObject({ status: 'in_progress', round: 2 });
    await expect(store.writeTrace('../../etc', 'x', { request: {}, response: '', meta: {} })).rejects.toThrow(
      /not a plain relative name/,
    );
  });
});
