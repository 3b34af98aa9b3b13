/** `skillclimb review` in-process: flags, exit codes, usage errors, and whole runs over nock. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { strictNock } from '../helpers/nock-frame.js';
import {
  anthropicReply,
  CALC_BRANCH,
  checkAnswer,
  git,
  HALF_BUG,
  KEYS,
  makeReviewRepo,
  openaiInputText,
  openaiReply,
  removeReviewDirs,
  reviewAnswer,
  stateOf,
  type Recorded,
} from '../helpers/review-fixtures.js';

strictNock();
afterEach(removeReviewDirs);

interface Captured extends CliIo {
  stdout(): string;
  stderr(): string;
}

function io(cwd: string, env: NodeJS.ProcessEnv = { ...KEYS }, stdin?: Readable): Captured {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    env,
    cwd,
    exitCode: 0,
    ...(stdin ? { stdin } : {}),
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

async function run(args: string[], cli: Captured): Promise<number> {
  return main(['review', ...args], cli);
}

describe('usage and configuration errors exit 2 before any model call', () => {
  it.each([
    [['--difficulty', 'extreme'], /--difficulty/],
    [['--max-rounds', '0'], /--max-rounds/],
    [['--fix', 'sometimes'], /--fix/],
    [['--preset', 'poetry'], /--preset/],
    [['--reviewer-model', 'offline'], /--reviewer-model: offline has no reviewer/],
    [['--executor-model', 'nonsense'], /model id "nonsense"/],
    [['--base', 'no-such-branch'], /--base no-such-branch: no such branch or commit/],
    [['--claims', 'missing.md'], /--claims missing.md: no such file/],
    [['no/such/path.ts'], /path no\/such\/path.ts: no such file or folder/],
  ])('%j', async (args, message) => {
    const dir = await makeReviewRepo();
    const cli = io(dir);
    expect(await run(args, cli)).toBe(2);
    expect(cli.stderr()).toMatch(message);
  });

  it('names both key variables when there is no key (there is no offline reviewer)', async () => {
    const dir = await makeReviewRepo();
    const cli = io(dir, {});
    expect(await run([], cli)).toBe(2);
    expect(cli.stderr()).toContain('ANTHROPIC_API_KEY');
    expect(cli.stderr()).toContain('OPENAI_API_KEY');
    expect(cli.stderr()).toContain('no offline reviewer');
  });

  it('names the missing key of a chosen model', async () => {
    const dir = await makeReviewRepo();
    const cli = io(dir, { OPENAI_API_KEY: KEYS.OPENAI_API_KEY });
    expect(await run(['--reviewer-model', 'anthropic:claude-sonnet-4-5'], cli)).toBe(2);
    expect(cli.stderr()).toMatch(/reviewer model anthropic:claude-sonnet-4-5 needs ANTHROPIC_API_KEY/);
  });

  it('refuses a dirty tree with --fix auto unless --allow-dirty', async () => {
    const dir = await makeReviewRepo();
    await writeFile(path.join(dir, 'src/calc.ts'), `${CALC_BRANCH}// wip\n`);
    const cli = io(dir);
    expect(await run([], cli)).toBe(2);
    expect(cli.stderr()).toMatch(/uncommitted changes \(src\/calc.ts\).*--allow-dirty/);
    // manual never edits, so the same tree is fine there (the review then runs)
    anthropicReply(reviewAnswer(7, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    expect(await run(['--fix', 'manual'], io(dir))).toBe(0);
  });

  it('refuses a folder outside git, a branch with nothing to review, and an unreadable state file', async () => {
    const plain = await makeReviewRepo();
    const outside = path.join(plain, 'not-a-repo');
    await mkdir(outside);
    await writeFile(path.join(outside, '.git'), 'gitdir: /nowhere\n');
    const a = io(plain);
    expect(await run(['--project', outside], a)).toBe(2);
    expect(a.stderr()).toMatch(/not inside a git repository/);

    git(plain, 'checkout', '-q', 'main');
    const b = io(plain);
    expect(await run([], b)).toBe(2);
    expect(b.stderr()).toMatch(/nothing to review: HEAD \([0-9a-f]{12}\) has no changes against main/);

    git(plain, 'checkout', '-q', 'feature');
    await mkdir(path.join(plain, 'review-stage'));
    await writeFile(path.join(plain, 'review-stage', 'REVIEW_STATE.json'), '{"run_id": ');
    const c = io(plain);
    expect(await run([], c)).toBe(2);
    expect(c.stderr()).toMatch(/REVIEW_STATE.json: not valid JSON .*fix or delete it/);
  });
});

describe('a run from the command line', () => {
  it('acquits with exit 0 and prints one progress line per round with score, verdict, seconds, tokens and cost', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply({
      summary: 'halve',
      edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
    });
    anthropicReply(reviewAnswer(8, 'ready'));
    const cli = io(dir);
    expect(await run([], cli)).toBe(0);
    const lines = cli.stdout().split('\n');
    expect(
      lines.filter((l) =>
        /^round [12]\/4: score \d+\/10, (not ready|ready) — \d+\.\d s, [\d,]+ tokens, \$\d+\.\d{4}$/.test(l),
      ),
    ).toHaveLength(2);
    expect(cli.stdout()).toContain(
      'models: reviewer anthropic:claude-sonnet-4-5 (anthropic), executor openai:gpt-5 (openai)',
    );
    expect(cli.stdout()).toMatch(/round 1: committed fixes to src\/calc.ts/);
    expect(cli.stdout()).toContain('acquitted: see review-stage/AUTO_REVIEW.md');
  });

  it('takes the reviewer and executor from skillclimb.config.json, and a bad field there is exit 2', async () => {
    const dir = await makeReviewRepo();
    const config = {
      models: { reviewer: 'openai:gpt-5', executor: 'anthropic:claude-sonnet-4-5' },
      review: { allow: ['docs/**'] },
    };
    await writeFile(path.join(dir, 'skillclimb.config.json'), JSON.stringify(config));
    openaiReply(reviewAnswer(7, 'ready'));
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const cli = io(dir);
    expect(await run(['--json'], cli)).toBe(0);
    const outcome = JSON.parse(cli.stdout()) as { reviewer: { id: string }; executor: { id: string } };
    expect(outcome.reviewer.id).toBe('openai:gpt-5');
    expect(outcome.executor.id).toBe('anthropic:claude-sonnet-4-5');

    await writeFile(
      path.join(dir, 'skillclimb.config.json'),
      JSON.stringify({ review: { allow: 'docs/**' } }),
    );
    const bad = io(dir);
    expect(await run([], bad)).toBe(2);
    expect(bad.stderr()).toMatch(/skillclimb.config.json: review.allow: expected array/);
  });

  it('--json prints the outcome on stdout and sends the log to stderr', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(9, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const cli = io(dir);
    expect(await run(['--json', '--max-rounds', '2'], cli)).toBe(0);
    const outcome = JSON.parse(cli.stdout()) as {
      status: string;
      rounds: unknown[];
      runId: string;
      receipt: { run_id: string };
    };
    expect(outcome.status).toBe('acquitted');
    expect(outcome.receipt.run_id).toBe(outcome.runId);
    expect(cli.stderr()).toContain('round 1/2: score 9/10, ready');
  });

  it('with one provider only says up front that the run cannot acquit, and exits 1 on its positive verdict', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(8, 'ready'));
    const cli = io(dir, { ANTHROPIC_API_KEY: KEYS.ANTHROPIC_API_KEY });
    expect(await run([], cli)).toBe(1);
    const err = cli.stderr();
    expect(err).toMatch(/only ANTHROPIC_API_KEY is set: .* cannot acquit/);
    expect(cli.stdout()).toContain('not-independent');
    expect(await stateOf(dir)).toMatchObject({ status: 'completed', family_relation: 'same' });
  });

  it('--checkpoint: input that ends pauses at the checkpoint; the next run reads the answer and goes on', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG, { title: 'No test for half()' }]));
    anthropicReply(checkAnswer(true, true)); // the finding check
    const first = io(dir, { ...KEYS }, Readable.from([]));
    expect(await run(['--checkpoint'], first)).toBe(1);
    expect(first.stdout()).toContain('📋 Round 1/4 review complete.');
    expect(first.stdout()).toContain('- Reply "skip 2" → skip fix #2, implement the rest');
    expect(await stateOf(dir)).toMatchObject({ awaiting: 'checkpoint', status: 'in_progress' });

    const executor: Recorded = { bodies: [] };
    openaiReply(
      { summary: 'halve', edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }] },
      executor,
    );
    anthropicReply(reviewAnswer(8, 'ready'));
    // no --checkpoint flag: a resumed run keeps its own settings
    const second = io(dir, { ...KEYS }, Readable.from(['skip 2\n']));
    expect(await run([], second)).toBe(0);
    expect(openaiInputText(executor.bodies[0]!)).not.toContain('No test for half()');
  });

  it('--fix manual: the next plain `skillclimb review` resumes in manual mode after the person’s commit', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    anthropicReply(checkAnswer(true)); // the finding check
    expect(await run(['--fix', 'manual'], io(dir))).toBe(1);
    await writeFile(path.join(dir, 'src/calc.ts'), CALC_BRANCH.replace('n / 3', 'n / 2'));
    git(dir, 'commit', '-q', '-am', 'fix half()');
    anthropicReply(reviewAnswer(5, 'not ready', [{ title: 'Still no tests' }]));
    anthropicReply(checkAnswer(true)); // the finding check
    const cli = io(dir);
    expect(await run(['--json'], cli)).toBe(1);
    const outcome = JSON.parse(cli.stdout()) as { status: string; rounds: Array<{ round: number }> };
    expect(outcome.status).toBe('awaiting-fix');
    expect(outcome.rounds.map((r) => r.round)).toEqual([1, 2]);
  });
});
