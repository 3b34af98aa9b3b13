/**
 * The simulated world of `npm run bench:review-quality` (scripts/lib/review-world.mjs, its responder and
 * its in-memory pull request): the truth read from the files, diffs git would write, and each role
 * answering the engine's real prompts — so a prompt change that would blind the benchmark fails here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFindingCheckPrompt } from '../../src/core/review/check-prompt.js';
import { applyEditToText } from '../../src/core/review/edits.js';
import { buildFixPrompt, buildReviewPrompt, type ChangeMaterial } from '../../src/core/review/prompts.js';
import type { RankedWeakness } from '../../src/core/review/state.js';
import { createPullTarget, fileDiff } from '../../scripts/lib/review-pull.mjs';
import { createReviewResponder, type Level } from '../../scripts/lib/review-responder.mjs';
import {
  INVENTED,
  SLOTS,
  baseFiles,
  headFiles,
  presentSlots,
  type Invented,
  type Slot,
} from '../../scripts/lib/review-world.mjs';

const MARKER = '3b1f0c2d-aaaa-4bbb-8ccc-dddddddddddd';
const EXACT: Level = {
  r: 1,
  carried: 1,
  invent: 0,
  stick: 1,
  flip: 0,
  checkKeep: 1,
  checkFalse: 0,
  fixRate: 1,
  breakRate: 0,
};
const slot = (id: string) => SLOTS.find((s) => s.id === id)!;
const count = (text: string, part: string) => text.split(part).length - 1;

function change(files: Record<string, string>): ChangeMaterial {
  const changed = Object.keys(files).filter((p) => p !== 'package.json' && p !== 'src/money.ts');
  return {
    claims: { source: 'pull request #1', text: files['README.md']! },
    range: 'aaaaaaaaaaaa..bbbbbbbbbbbb',
    diff: '(diff)',
    changedFiles: changed,
    files: { files: changed.map((p) => ({ path: p, text: files[p]! })), omitted: [] },
  };
}

function ranked(entries: ReadonlyArray<Slot | Invented>): RankedWeakness[] {
  return entries.map((e, i) => ({
    rank: i + 1,
    ...e.finding,
    effort: 'small',
    line: null,
    source: 'reviewer',
    resolved_by_debate: false,
  }));
}

/** The fields of the three roles' answers the tests read. */
interface Answer {
  score: number;
  verdict: string;
  weaknesses: Array<{ title: string; severity: string; file: string; line: number | null }>;
  checks: Array<{ finding: number; holds: boolean }>;
  edits: Array<{ path: string; old_string: string; new_string: string }>;
}

function json(reply: unknown): Answer {
  expect(reply).toHaveProperty('json');
  return (reply as { json: Answer }).json;
}

describe('the pull requests', () => {
  it('hold each slot’s line and each invented finding’s line exactly once, whatever the slots hold', () => {
    for (let mask = 0; mask < 1 << SLOTS.length; mask += 211) {
      const defective = SLOTS.filter((_, i) => mask & (1 << i)).map((s) => s.id);
      const files = headFiles(defective);
      for (const s of SLOTS) {
        const held = defective.includes(s.id);
        expect(count(files[s.file]!, held ? s.bad : s.good), s.id).toBe(1);
        expect(count(files[s.file]!, held ? s.good : s.bad), s.id).toBe(0);
      }
      for (const f of INVENTED) expect(count(files[f.file]!, f.anchor), f.id).toBe(1);
      expect(presentSlots(files)).toEqual(defective);
    }
  });

  it('diff as git does, and a fix is a commit whose truth the files tell', async () => {
    const before = baseFiles()['src/inventory.ts']!;
    const after = headFiles(['OVERSELL'])['src/inventory.ts']!;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-review-world-'));
    try {
      await writeFile(path.join(dir, 'a'), before);
      await writeFile(path.join(dir, 'b'), after);
      let gitDiff = '';
      try {
        execFileSync('git', ['diff', '--no-index', '--no-color', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
      } catch (error) {
        gitDiff = (error as { stdout: string }).stdout; // exit code 1: the files differ
      }
      const hunks = (text: string) =>
        text
          .split('\n')
          .filter((l) => /^[-+ @]/.test(l) && !/^(---|\+\+\+) /.test(l))
          .map((l) => (l.startsWith('@@') ? l.replace(/ @@.*$/, ' @@') : l));
      expect(hunks(fileDiff('src/inventory.ts', before, after))).toEqual(hunks(gitDiff));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const pr = createPullTarget({
      number: 3,
      base: baseFiles(),
      head: headFiles(['OVERSELL']),
      claims: () => '',
    });
    const { base, head } = await pr.target.resolve();
    expect(await pr.target.filesUnderReview(base, head)).toEqual([
      'README.md',
      'src/discounts.ts',
      'src/inventory.ts',
      'src/orders.ts',
    ]);
    const text = pr.files(head)['src/inventory.ts']!.replace(slot('OVERSELL').bad, slot('OVERSELL').good);
    const fixed = await pr.target.commitFiles([{ path: 'src/inventory.ts', text }], 'fix');
    expect(presentSlots(pr.files(head))).toEqual(['OVERSELL']);
    expect(presentSlots(pr.files(fixed.head))).toEqual([]);
    expect(await pr.target.changedFiles(head, fixed.head)).toEqual(['src/inventory.ts']);
    expect((await pr.target.diff(head, fixed.head, 10_000)).text).toContain(`+${slot('OVERSELL').good}`);
  });
});

describe('the models, on the engine’s own prompts', () => {
  const files = headFiles(['SUBTOTAL', 'CODE_CASE']);

  it('the reviewer reports the defects in the files it is shown, and its verdict follows them', () => {
    const models = createReviewResponder('t', EXACT);
    const base = {
      round: 1,
      maxRounds: 4,
      preset: 'code',
      difficulty: 'medium',
      sinceLast: undefined,
      memory: '',
    } as const;
    const prompt = buildReviewPrompt({ ...base, change: change(files), marker: MARKER });
    const answer = json(models.respond({ system: prompt.system, text: prompt.user }));
    expect(answer.weaknesses.map((w) => w.title)).toEqual([
      slot('SUBTOTAL').finding.title,
      slot('CODE_CASE').finding.title,
    ]);
    expect(answer.weaknesses[0]).toMatchObject({ severity: 'critical', file: 'src/orders.ts', line: 45 });
    expect(answer).toMatchObject({ score: 3, verdict: 'not ready' });
    const clean = buildReviewPrompt({ ...base, change: change(headFiles([])), marker: MARKER });
    expect(json(models.respond({ system: clean.system, text: clean.user }))).toMatchObject({
      score: 8,
      verdict: 'ready',
      weaknesses: [],
    });
    expect(models.stats).toMatchObject({ reviews: 2, checks: 0, fixes: 0, other: 0 });
  });

  it('the reviewer re-checks an open finding, and repeats an invented one it carried', () => {
    const models = createReviewResponder('t', { ...EXACT, r: 0 });
    const prompt = buildReviewPrompt({
      round: 2,
      maxRounds: 4,
      preset: 'code',
      difficulty: 'medium',
      change: change(files),
      sinceLast: { range: 'a..b', diff: '', changedFiles: [] },
      memory: '',
      openBlockers: ranked([slot('SUBTOTAL'), INVENTED[0]!]),
      marker: MARKER,
    });
    const answer = json(models.respond({ system: prompt.system, text: prompt.user }));
    expect(answer.weaknesses.map((w) => w.title)).toEqual([
      slot('SUBTOTAL').finding.title,
      INVENTED[0]!.finding.title,
    ]);
  });

  it('the checker confirms a present defect and refutes an invented or fixed one', () => {
    const models = createReviewResponder('t', EXACT);
    const prompt = buildFindingCheckPrompt({
      findings: ranked([slot('SUBTOTAL'), INVENTED[5]!, slot('OVERSELL')]),
      change: change(files),
      marker: MARKER,
    });
    const answer = json(models.respond({ system: prompt.system, text: prompt.user }));
    expect(answer.checks.map((c) => [c.finding, c.holds])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(models.stats.checks).toBe(1);
  });

  it('the executor fixes what it is asked with edits the engine can apply, and sometimes breaks a line', () => {
    const fix = (level: Level) => {
      const prompt = buildFixPrompt({
        weaknesses: ranked([slot('SUBTOTAL'), INVENTED[5]!]),
        guidance: undefined,
        editable: change(files).files,
        diff: '(diff)',
        range: 'a..b',
        marker: MARKER,
      });
      return json(createReviewResponder('t', level).respond({ system: prompt.system, text: prompt.user }));
    };
    const apply = (edits: Answer['edits']) => {
      const out = { ...files };
      for (const e of edits) {
        const applied = applyEditToText(out[e.path]!, e);
        expect(applied.ok, `${e.path}: ${e.old_string}`).toBe(true);
        if (applied.ok) out[e.path] = applied.text;
      }
      return out;
    };
    expect(presentSlots(apply(fix(EXACT).edits))).toEqual(['CODE_CASE']);
    // a miss edits the line without fixing it; a break turns a correct slot into its defect
    expect(presentSlots(apply(fix({ ...EXACT, fixRate: 0 }).edits))).toEqual(['CODE_CASE', 'SUBTOTAL']);
    expect(presentSlots(apply(fix({ ...EXACT, breakRate: 1 }).edits))).toHaveLength(2);
  });
});
