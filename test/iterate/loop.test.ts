import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyEdit } from '../../src/core/iterate/hill-climb.js';
import { loadSkillEvals } from '../../src/iterate/evals-files.js';
import { parseResultsTsv } from '../../src/core/iterate/results-tsv.js';
import { buildEditorPrompt } from '../../src/core/iterate/editor-prompt.js';
import { promptText } from '../../src/core/text/quoting.js';
import { createGitWorkspace } from '../../src/git/workspace.js';
import { createWorktree } from '../../src/git/worktree.js';
import { RunInterrupted } from '../../src/iterate/interrupt.js';
import { runSkillLoop } from '../../src/iterate/loop/run-skill-loop.js';
import { LoopInterrupted, type LoopOptions, type SkillLoopInput } from '../../src/iterate/loop/types.js';
import type { Logger } from '../../src/ports/logger.js';
import type { EditorInput } from '../../src/ports/models.js';
import { createScriptedModels, type ScriptedModelsOptions } from '../../src/llm/scripted.js';
import {
  cleanupTempDirs,
  git,
  gradeByMarkers,
  makeProject,
  SKILL_MD,
  tempDir,
} from '../helpers/engine-fixtures.js';

afterEach(cleanupTempDirs);

const REL = '.claude/skills/demo';

/** The render echoes the SKILL.md (graded by gradeByMarkers). */
const echoRender = (input: { skillMd: string }) => input.skillMd;

/** An editor that plays a fixed list of edits against the current text. */
function editsInOrder(edits: Array<(input: EditorInput) => unknown>) {
  return (input: EditorInput, i: number) => {
    const edit = edits[i];
    if (!edit) throw new Error(`no scripted edit #${i}`);
    return edit(input);
  };
}

const addLine = (marker: string) => () => ({
  description: `add ${marker}`,
  old_string: '## Constraints\n',
  new_string: `## Constraints\n\n- ${marker}\n`,
});
const noOpRewording = (input: EditorInput) => ({
  description: 'reword a step',
  old_string: input.skillMd.includes('1. Read the notes.')
    ? '1. Read the notes.'
    : '1. Read the notes carefully.',
  new_string: input.skillMd.includes('1. Read the notes.')
    ? '1. Read the notes carefully.'
    : '1. Read the notes.',
});

interface Harness {
  project: string;
  input: SkillLoopInput;
  progress: string[];
  resultsFile: string;
  baseCommit: string;
  worktreePath: string;
}

const quietLog = (progress: string[]): Logger => ({
  info: () => undefined,
  warn: () => undefined,
  progress: (m) => progress.push(m),
});

async function harness(
  models: ScriptedModelsOptions,
  options: Partial<LoopOptions> = {},
  extra: Partial<SkillLoopInput> = {},
): Promise<Harness> {
  const project = await makeProject();
  const home = await tempDir('skillclimb-home-');
  const wt = await createWorktree({ project, home, skill: 'demo', epoch: 1700000000 });
  const evals = await loadSkillEvals(path.join(project, REL));
  const resultsFile = path.join(project, REL, 'evals', 'results.tsv');
  const progress: string[] = [];
  const input: SkillLoopInput = {
    skill: 'demo',
    worktreePath: wt.path,
    baseCommit: wt.baseCommit,
    skillRelPath: REL,
    evals,
    resultsFile,
    options: {
      mode: 'absolute',
      concurrency: 4,
      iterationTimeoutMs: 60_000,
      perSkillBudgetMs: 3_600_000,
      perSkillIterations: 1,
      maxCostUsd: undefined,
      // The original's single draw and keep rule: these tests count its calls (issue 19's tests are apart).
      trials: 1,
      keepRule: 'original',
      ...options,
    },
    models: createScriptedModels({ render: echoRender, grade: gradeByMarkers, ...models }),
    git: createGitWorkspace(quietLog(progress)),
    log: quietLog(progress),
    now: () => new Date(),
    ...extra,
  };
  return { project, input, progress, resultsFile, baseCommit: wt.baseCommit, worktreePath: wt.path };
}

async function tsv(file: string) {
  return parseResultsTsv(await readFile(file, 'utf8'));
}

const head = (dir: string) => git(dir, 'rev-parse', 'HEAD').trim();
const skillMdIn = (dir: string) => readFile(path.join(dir, REL, 'SKILL.md'), 'utf8');

describe('applyEdit', () => {
  it('replaces a unique old_string literally', () => {
    expect(applyEdit('a $& b', { old_string: '$&', new_string: '$1' })).toEqual({ ok: true, text: 'a $1 b' });
  });
  it('refuses missing, repeated, overlapping and no-op edits', () => {
    expect(applyEdit('abc', { old_string: 'x', new_string: 'y' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/occurs 0 times/),
    });
    expect(applyEdit('a a', { old_string: 'a', new_string: 'b' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/occurs 2 times/),
    });
    expect(applyEdit('aaa', { old_string: 'aa', new_string: 'b' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/occurs 2 times/),
    });
    expect(applyEdit('abc', { old_string: 'b', new_string: 'b' })).toEqual({
      ok: false,
      reason: 'the edit changes nothing',
    });
  });
});

describe('runSkillLoop', () => {
  it('baseline, then a targeted edit that improves the score is kept', async () => {
    const h = await harness({ propose: editsInOrder([addLine('SUMMARY')]) });
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    const result = await runSkillLoop(h.input);

    expect(result.baselineScore).toBe(0);
    expect(result.finalScore).toBeCloseTo(0.5, 9);
    expect(result.iterations).toBe(1);
    expect(result.stopReason).toBe('iteration cap');
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'keep']);
    expect(rows[0]).toMatchObject({
      commit: h.baseCommit.slice(0, 7),
      // The absolute mode's rows carry their mode (composite rows, the original's, carry none).
      description: '[absolute] initial baseline',
      score: 0,
    });
    expect(rows[1]?.commit).toMatch(/^[0-9a-f]{7}$/);
    expect(head(h.worktreePath).startsWith(rows[1]!.commit)).toBe(true);
    expect(git(h.worktreePath, 'log', '-1', '--format=%s').trim()).toBe('add SUMMARY');
    expect(result.keptEdits).toEqual([
      {
        iteration: 1,
        commit: rows[1]!.commit,
        description: 'add SUMMARY',
        score: rows[1]!.score,
        delta: rows[1]!.score,
      },
    ]);
    expect(h.progress).toHaveLength(2);
    expect(h.progress[1]).toMatch(/demo\s+iter 1\s+keep/);

    // Step A got every field of the targeted prompt, from the baseline's scoring.
    const editor = models.calls.propose[0]!;
    expect(editor.mode).toBe('targeted');
    expect(editor.radical).toBe(false);
    expect(editor.skillMd).toBe(SKILL_MD);
    expect(editor.topFailure).toMatchObject({
      assertion_id: 1,
      scenario_id: 'scenario_1',
      grader_reason: 'marker for 1',
    });
    expect(editor.otherFailures.map((f) => f.assertion_id)).toEqual([2]);
    expect(editor.passingPairs).toEqual([]);
    expect(editor.failingRenderExcerpt).toBe(SKILL_MD);
    expect(editor.revertedDescriptions).toEqual([]);
    expect(editor.structural.score).toBeGreaterThan(0);
  });

  it("keeps git off the critical path: the commit goes with the first renders, a revert's reset with the next editor call", async () => {
    const order: string[] = [];
    let resets = 0;
    let resetDone = true;
    const h = await harness(
      {
        propose: (input, i) => {
          // The previous revert's reset may still be running, but it is done before the edit is written.
          order.push(`propose ${i} (reset ${resetDone ? 'done' : 'running'})`);
          return noOpRewording(input);
        },
        render: (input) => {
          order.push('render');
          return echoRender(input);
        },
      },
      { perSkillIterations: 2 },
    );
    const real = h.input.git;
    const commits: string[] = [];
    h.input.git = {
      ...real,
      commitFile: async (...args) => {
        order.push('commit start');
        const sha = await real.commitFile(...args);
        commits.push(sha);
        order.push('commit end');
        return sha;
      },
      resetToParent: async (dir) => {
        resets += 1;
        resetDone = false;
        await new Promise((resolve) => setTimeout(resolve, 50));
        await real.resetToParent(dir);
        resetDone = true;
        order.push('reset end');
      },
    };
    await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'revert', 'revert']);
    expect(rows.slice(1).map((r) => r.commit)).toEqual(commits);
    // The renders of an edit went out before its commit was done.
    const firstCommitEnd = order.indexOf('commit end');
    expect(order.slice(order.indexOf('commit start'), firstCommitEnd)).toContain('render');
    // The second editor call went out while the first revert was still being reset.
    expect(order).toContain('propose 1 (reset running)');
    expect(order.indexOf('reset end')).toBeGreaterThan(order.indexOf('propose 1 (reset running)'));
    // Both reverts were reset before the loop returned: the branch is back at its base.
    expect(resets).toBe(2);
    expect(head(h.worktreePath)).toBe(h.baseCommit);
    expect(await skillMdIn(h.worktreePath)).toBe(SKILL_MD);
    expect(git(h.worktreePath, 'status', '--porcelain')).toBe('');
  });

  it('a commit that fails is a crash: the scoring it overlapped is stopped and the edit discarded', async () => {
    const h = await harness({ propose: editsInOrder([addLine('SUMMARY')]) });
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    h.input.git = {
      ...h.input.git,
      commitFile: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('git commit failed: disk full');
      },
    };
    const result = await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'crash']);
    expect(rows[1]?.description).toContain('disk full');
    expect(result.consecutiveCrashes).toBe(1);
    expect(head(h.worktreePath)).toBe(h.baseCommit);
    expect(await skillMdIn(h.worktreePath)).toBe(SKILL_MD);
    expect(rows[1]?.score).toBeNull();
    // The baseline was graded; the failed edit's scoring did not run to its grades.
    expect(models.calls.render.length).toBeLessThanOrEqual(2);
  });

  it('reverts a non-improving edit: row first with its SHA, then HEAD back, the SHA still in the object store', async () => {
    const h = await harness(
      { propose: editsInOrder([noOpRewording, noOpRewording]) },
      { perSkillIterations: 2 },
    );
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    const result = await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'revert', 'revert']);
    expect(rows[1]?.commit).toMatch(/^[0-9a-f]{7}$/);
    expect(head(h.worktreePath)).toBe(h.baseCommit);
    expect(await skillMdIn(h.worktreePath)).toBe(SKILL_MD);
    expect(git(h.worktreePath, 'cat-file', '-t', rows[1]!.commit).trim()).toBe('commit');
    expect(result.finalScore).toBe(result.baselineScore);
    expect(result.keptEdits).toEqual([]);
    // The second proposal starts from the kept text and knows what was reverted.
    expect(models.calls.propose[1]?.skillMd).toBe(SKILL_MD);
    expect(models.calls.propose[1]?.revertedDescriptions).toEqual(['reword a step']);
  });

  it('keeps a tie that shrank SKILL.md (simplicity bias)', async () => {
    const h = await harness({
      propose: editsInOrder([
        () => ({ description: 'drop a constraint', old_string: '\n- Keep it short.\n', new_string: '\n' }),
      ]),
    });
    const result = await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'keep']);
    expect(rows[1]?.score).toBe(rows[0]?.score);
    expect(result.keptEdits).toHaveLength(1);
    expect(await skillMdIn(h.worktreePath)).not.toContain('Keep it short');
  });

  it('reverts an AMBIGUOUS render and records why', async () => {
    const h = await harness({
      render: (input) =>
        input.skillMd.includes('BROKEN') ? 'AMBIGUOUS: the skill contradicts itself' : input.skillMd,
      propose: editsInOrder([
        () => ({
          description: 'add SUMMARY BROKEN',
          old_string: '## Steps',
          new_string: '## Steps SUMMARY BROKEN',
        }),
      ]),
    });
    await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows[1]).toMatchObject({ status: 'revert', score: null });
    expect(rows[1]?.description).toContain('AMBIGUOUS: the skill contradicts itself');
    expect(head(h.worktreePath)).toBe(h.baseCommit);
  });

  it('reverts a non-unique old_string and an unusable editor answer without committing anything', async () => {
    const h = await harness(
      {
        propose: editsInOrder([
          () => ({ description: 'ambiguous anchor', old_string: '##', new_string: '###' }),
          () => ({ description: 42 }),
        ]),
      },
      { perSkillIterations: 2 },
    );
    const result = await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => [r.status, r.commit, r.score])).toEqual([
      ['baseline', h.baseCommit.slice(0, 7), 0],
      ['revert', '-', null],
      ['revert', '-', null],
    ]);
    expect(rows[1]?.description).toMatch(
      /^\[absolute\] ambiguous anchor \(revert: old_string occurs \d+ times/,
    );
    expect(rows[2]?.description).toMatch(/^\[absolute\] no edit \(revert: editor answer unusable/);
    // The terminal line says why, not only `revert score NULL`.
    expect(h.progress.find((l) => l.includes('iter 1'))).toMatch(
      /revert +score +NULL .*reason old_string occurs \d+ times/,
    );
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    expect(models.calls.propose[1]?.revertedDescriptions).toEqual(['ambiguous anchor']);
    expect(head(h.worktreePath)).toBe(h.baseCommit);
    expect(git(h.worktreePath, 'rev-list', '--count', 'HEAD').trim()).toBe('1');
    expect(result.consecutiveCrashes).toBe(0);
  });

  it('crashes when the grader answers garbage twice, and resets the unjudged commit', async () => {
    const h = await harness({
      propose: editsInOrder([addLine('SUMMARY')]),
      grade: (input) => (input.output.includes('SUMMARY') ? 'not json at all' : gradeByMarkers(input)),
    });
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    const result = await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows[1]).toMatchObject({ status: 'crash', score: null });
    expect(rows[1]?.commit).toMatch(/^[0-9a-f]{7}$/);
    expect(rows[1]?.description).toMatch(/unparseable/);
    expect(head(h.worktreePath)).toBe(h.baseCommit);
    expect(result.consecutiveCrashes).toBe(1);
    // One grade for the baseline, then the first try and its one retry.
    expect(models.calls.grade).toHaveLength(3);
  });

  it('stops after three consecutive crashes', async () => {
    const h = await harness(
      {
        propose: () => {
          throw new Error('editor endpoint down');
        },
      },
      { perSkillIterations: 10 },
    );
    const result = await runSkillLoop(h.input);
    expect(result.stopReason).toBe('consecutive crashes');
    expect(result.iterations).toBe(3);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'crash', 'crash', 'crash']);
    expect(rows[3]?.description).toContain('editor endpoint down');
  });

  it('a baseline that cannot be scored is retried and parks after three crashes', async () => {
    const h = await harness(
      { render: () => Promise.reject(new Error('render service 503')) },
      { perSkillIterations: 10 },
    );
    const result = await runSkillLoop(h.input);
    expect(result.baselineScore).toBeNull();
    expect(result.iterations).toBe(0);
    expect(result.stopReason).toBe('consecutive crashes');
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual(['crash', 'crash', 'crash']);
    expect(rows[0]?.description).toMatch(/^\[absolute\] initial baseline \(crash: harness-error: .*503/);
  });

  it('times out a hanging iteration as a crash and aborts its model calls', async () => {
    let sawAbort = false;
    const h = await harness(
      {
        propose: editsInOrder([addLine('SUMMARY')]),
        grade: (input) => {
          if (!input.output.includes('SUMMARY')) return gradeByMarkers(input);
          return new Promise(() => undefined); // hangs forever
        },
      },
      { iterationTimeoutMs: 150 },
    );
    const models = h.input.models;
    const original = models.grade.bind(models);
    models.grade = (input, signal) => {
      signal.addEventListener('abort', () => (sawAbort = true));
      return original(input, signal);
    };
    const started = Date.now();
    const result = await runSkillLoop(h.input);
    expect(Date.now() - started).toBeLessThan(10_000);
    const rows = await tsv(h.resultsFile);
    expect(rows[1]).toMatchObject({ status: 'crash', score: null });
    expect(rows[1]?.description).toMatch(/timed out after 150ms/);
    expect(sawAbort).toBe(true);
    expect(head(h.worktreePath)).toBe(h.baseCommit);
    expect(result.consecutiveCrashes).toBe(1);
  });

  it('saturation confirmed: the N=3 re-grade reuses the render and the next edit is a simplification', async () => {
    const h = await harness(
      {
        propose: editsInOrder([
          () => ({
            description: 'add both',
            old_string: '## Steps',
            new_string: '## Steps SUMMARY TEST-NAME',
          }),
          () => ({ description: 'trim', old_string: '2. Write the summary.', new_string: '2. Summarise.' }),
        ]),
      },
      { perSkillIterations: 2 },
    );
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    const result = await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows[1]).toMatchObject({ status: 'keep', score: 1 });
    // Iteration 1: one render of the new text; grades for N=1 then trials 1..3 of the re-grade.
    const iter1 = models.calls.grade.filter(
      (g) => g.output.includes('TEST-NAME') && !g.output.includes('Summarise'),
    );
    expect(iter1.map((g) => g.trial)).toEqual([1, 1, 2, 3]);
    expect(
      models.calls.render.filter((r) => r.skillMd.includes('TEST-NAME') && !r.skillMd.includes('Summarise')),
    ).toHaveLength(1);
    const second = models.calls.propose[1]!;
    expect(second.mode).toBe('simplification');
    expect(second.topFailure).toBeUndefined();
    expect(second.passingPairs).toEqual([
      { assertion_id: 1, scenario_id: 'scenario_1' },
      { assertion_id: 2, scenario_id: 'scenario_1' },
    ]);
    expect(result.iterations).toBe(2);
  });

  it('saturation rejected: the median decides the score and the next edit targets its failure', async () => {
    const h = await harness(
      {
        propose: editsInOrder([
          () => ({
            description: 'add both',
            old_string: '## Steps',
            new_string: '## Steps SUMMARY TEST-NAME',
          }),
          noOpRewording,
        ]),
        // Trial 1 passes everything; trials 2 and 3 fail id 2, so the majority fails it.
        grade: (input) => {
          const answer = gradeByMarkers(input);
          if (input.trial > 1 && answer.verdicts['2'])
            answer.verdicts['2'] = { verdict: false, reason: 'noisy' };
          return answer;
        },
      },
      { perSkillIterations: 2 },
    );
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows[1]).toMatchObject({ status: 'keep' });
    expect(rows[1]?.score).toBeCloseTo(0.5, 9);
    const second = models.calls.propose[1]!;
    expect(second.mode).toBe('targeted');
    expect(second.topFailure).toMatchObject({ assertion_id: 2, grader_reason: 'noisy' });
  });

  it('a saturation re-grade that fails makes the whole iteration a crash', async () => {
    const h = await harness({
      propose: editsInOrder([
        () => ({ description: 'add both', old_string: '## Steps', new_string: '## Steps SUMMARY TEST-NAME' }),
      ]),
      grade: (input) => (input.trial === 2 ? Promise.reject(new Error('grader 500')) : gradeByMarkers(input)),
    });
    await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows[1]).toMatchObject({ status: 'crash', score: null });
    expect(rows[1]?.description).toMatch(/saturation re-grade failed/);
  });

  it('switches to radical mode after 3 consecutive reverts; a keep resets the counter; crashes do not', async () => {
    const h = await harness(
      {
        propose: editsInOrder([
          noOpRewording,
          noOpRewording,
          () => {
            throw new Error('transient');
          },
          noOpRewording,
          addLine('SUMMARY'),
          noOpRewording,
        ]),
      },
      { perSkillIterations: 6 },
    );
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual([
      'baseline',
      'revert',
      'revert',
      'crash',
      'revert',
      'keep',
      'revert',
    ]);
    expect(models.calls.propose.map((c) => c.radical)).toEqual([false, false, false, false, true, false]);
  });

  it('never keeps an edit that breaks the frontmatter', async () => {
    const h = await harness({
      propose: editsInOrder([
        () => ({ description: 'improve and drop name', old_string: 'name: demo\n', new_string: 'SUMMARY\n' }),
      ]),
    });
    await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows[1]).toMatchObject({ status: 'revert' });
    expect(rows[1]?.score).toBeGreaterThan(rows[0]!.score!);
    expect(rows[1]?.description).toMatch(/breaks frontmatter: frontmatter has no name/);
    expect(head(h.worktreePath)).toBe(h.baseCommit);
  });

  it('stops on the wall-clock budget', async () => {
    let t = 0;
    const now = () => new Date(1_700_000_000_000 + (t += 10_000));
    const h = await harness(
      { propose: () => ({ description: 'x', old_string: 'nope', new_string: 'y' }) },
      { perSkillIterations: 100, perSkillBudgetMs: 45_000 },
      { now },
    );
    const result = await runSkillLoop(h.input);
    expect(result.stopReason).toBe('wall-clock budget');
    expect(result.iterations).toBeGreaterThan(0);
    expect(result.iterations).toBeLessThan(5);
    // Each clock reading is 10 s later: the loop starts at 10 s, the baseline takes 20–30 s, the first
    // iteration 50–60 s, and the check at 70 s (60 s spent >= 45 s) stops it after exactly one iteration.
    expect(result.iterations).toBe(1);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => [r.status, r.wallSeconds])).toEqual([
      ['baseline', 10],
      ['revert', 10],
    ]);
  });

  it('stops once the run has spent maxCostUsd', async () => {
    const h = await harness(
      { propose: noOpRewording, usagePerCall: { costUsd: 0.01 } },
      { perSkillIterations: 100, maxCostUsd: 0.05 },
      {
        runUsageBefore: {
          calls: 1,
          inputTokens: 0,
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0.02,
        },
      },
    );
    const result = await runSkillLoop(h.input);
    expect(result.stopReason).toBe('cost budget');
    // Baseline: render + grade = 0.02, each iteration: propose + render + grade = 0.03 → 0.02 + 0.02 + 0.03 ≥ 0.05.
    expect(result.iterations).toBe(1);
    expect(result.usage.costUsd).toBeCloseTo(0.05, 9);
  });

  it('structural-only models: targeted mode with no failure to anchor on', async () => {
    const h = await harness({
      structuralOnly: true,
      propose: editsInOrder([
        () => ({ description: 'label fence', old_string: '## Steps', new_string: '## Steps\n' }),
      ]),
    });
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    const result = await runSkillLoop(h.input);
    expect(models.calls.render).toHaveLength(0);
    expect(models.calls.propose[0]).toMatchObject({
      mode: 'targeted',
      topFailure: undefined,
      otherFailures: [],
      passingPairs: [],
    });
    expect(result.baselineScore).toBe(models.calls.propose[0]!.structural.score);
  });
  it('a real editor with structural-only scoring gets a structural-target prompt and its edit is kept', async () => {
    // A provider-like editor: it builds the prompt the real providers send and acts on what it says.
    const prompts: string[] = [];
    const h = await harness(
      {
        propose: (input) => {
          const prompt = promptText(buildEditorPrompt(input));
          prompts.push(prompt);
          const missing = /missing: (\w+)/.exec(prompt)?.[1] ?? 'nothing';
          return {
            description: `add the ${missing} section (required_sections)`,
            old_string: '- Keep it short.\n',
            new_string: `- Keep it short.\n\n## ${missing}\n\n- None known.\n`,
          };
        },
      },
      { mode: 'structural', perSkillIterations: 1 },
    );
    const result = await runSkillLoop(h.input);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'keep']);
    expect(result.stopReason).toBe('iteration cap');
    expect(result.finalScore!).toBeGreaterThan(result.baselineScore!);
    expect(prompts[0]).toContain(
      '  required_sections 0.67: 2 of 3 required sections present as headings; missing: Limitations',
    );
    expect(await skillMdIn(h.worktreePath)).toContain('## Limitations');
  });

  it('an AMBIGUOUS baseline ends the skill at once: one row, no retries, no crash count', async () => {
    const h = await harness(
      {
        render: () => 'AMBIGUOUS: the scenario names no session to wrap',
        propose: () => {
          throw new Error('the editor must not be called');
        },
      },
      { perSkillIterations: 10 },
    );
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    const result = await runSkillLoop(h.input);
    expect(result.stopReason).toBe('baseline ambiguous');
    expect(result.ambiguousReason).toBe('the scenario names no session to wrap');
    expect(result.baselineScore).toBeNull();
    expect(result.consecutiveCrashes).toBe(0);
    expect(models.calls.render).toHaveLength(1);
    expect(models.calls.propose).toHaveLength(0);
    const rows = await tsv(h.resultsFile);
    expect(rows).toEqual([
      expect.objectContaining({
        status: 'baseline',
        score: null,
        description: '[absolute] initial baseline (AMBIGUOUS: the scenario names no session to wrap)',
      }),
    ]);
  });

  it('an interrupt mid-iteration stops the loop: no row for the unfinished iteration, the edit reset', async () => {
    const controller = new AbortController();
    const h = await harness(
      {
        propose: editsInOrder([addLine('SUMMARY'), noOpRewording]),
        grade: (input, i) => {
          // Grade #3 belongs to iteration 2: the operator presses Ctrl+C while it runs.
          if (i === 2) {
            controller.abort(new RunInterrupted('interrupted by SIGINT', 'SIGINT'));
            return new Promise(() => undefined);
          }
          return gradeByMarkers(input);
        },
        usagePerCall: { costUsd: 0.01 },
      },
      { perSkillIterations: 5 },
      { signal: controller.signal },
    );
    const error = await runSkillLoop(h.input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoopInterrupted);
    const { interruption, partial } = error as LoopInterrupted;
    expect(interruption.reason).toBe('interrupted by SIGINT');
    expect(interruption.exitCode).toBe(130);
    const rows = await tsv(h.resultsFile);
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'keep']);
    expect((await readFile(h.resultsFile, 'utf8')).endsWith('\n')).toBe(true);
    expect(partial.rows).toEqual(rows);
    expect(partial.iterations).toBe(1);
    // Every call that answered is counted, the unfinished iteration's editor call too (2 + 3 + 1); the
    // scoring cut short reports nothing.
    expect(partial.usage.calls).toBe(6);
    // The branch tip is the last kept edit: the unjudged commit of iteration 2 was reset away.
    expect(head(h.worktreePath).startsWith(rows[1]!.commit)).toBe(true);
  });
});

describe("runSkillLoop: the baseline's extra draws beside the first editor call (issue 28 item 6)", () => {
  it('an interrupt while they run: the baseline was never judged (no row), every answered call counted', async () => {
    const controller = new AbortController();
    const h = await harness(
      {
        propose: editsInOrder([addLine('SUMMARY')]),
        grade: (input, i) => {
          // Grade #2 is draw 1's, made beside the first editor call: Ctrl+C while it runs.
          if (i === 1) {
            controller.abort(new RunInterrupted('interrupted by SIGINT', 'SIGINT'));
            return new Promise(() => undefined);
          }
          return gradeByMarkers(input);
        },
        usagePerCall: { costUsd: 0.01 },
      },
      { perSkillIterations: 5, trials: 3, keepRule: 'noise-aware' },
      { signal: controller.signal },
    );
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    const error = await runSkillLoop(h.input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoopInterrupted);
    const { partial } = error as LoopInterrupted;
    expect(models.calls.propose).toHaveLength(1);
    expect(partial.rows).toEqual([]);
    expect(partial.baselineScore).toBeNull();
    await expect(readFile(h.resultsFile, 'utf8')).rejects.toThrow(/ENOENT/);
    // Draw 0's render and grade and the editor call count; draw 1 was cut short and reports nothing, as
    // when it ran before the first editor call.
    expect(partial.usage.calls).toBe(3);
    expect(head(h.worktreePath)).toBe(h.baseCommit);
  });

  it("the skill's wall-clock budget reached while they run: the baseline is draw 0 with a warning, the first iteration is cut unjudged", async () => {
    // Draw 0 answers at once; every later render of the unedited text (draw 1, or the noise probe's part
    // of it) hangs until the skill's 400 ms budget ends it. The first edit is proposed, rendered and
    // graded beside it and then waits for the baseline's draws before its keep decision.
    const baselineRenders: number[] = [];
    const said: string[] = [];
    const h = await harness(
      {
        propose: editsInOrder([addLine('SUMMARY')]),
        render: (input, i) => {
          if (!input.skillMd.includes('SUMMARY') && input.skillMd.includes('name: demo')) {
            baselineRenders.push(i);
            if (baselineRenders.length > 1) return new Promise<string>(() => undefined);
          }
          return echoRender(input);
        },
      },
      { perSkillIterations: 5, trials: 3, keepRule: 'noise-aware', perSkillBudgetMs: 400 },
      { log: { info: (m) => said.push(m), warn: (m) => said.push(`warn: ${m}`), progress: () => undefined } },
    );
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    const result = await runSkillLoop(h.input);
    expect(result.stopReason).toBe('wall-clock budget');
    expect(result.iterations).toBe(0);
    // The baseline was judged on draw 0 alone, said so, and is the only row.
    expect((await tsv(h.resultsFile)).map((r) => [r.status, r.description])).toEqual([
      ['baseline', '[absolute] initial baseline'],
    ]);
    expect(said).toContain(
      "warn: demo: the baseline's extra trials could not be scored (the per-skill budget of 400ms was " +
        'reached); the noise is not measured',
    );
    expect(models.calls.propose).toHaveLength(1);
    expect(baselineRenders.length).toBeGreaterThan(1);
    // The unjudged edit's commit was reset: the branch is where the night started.
    expect(head(h.worktreePath)).toBe(h.baseCommit);
  });

  it('a cost budget their calls reach ends the first iteration before its keep decision, unjudged, its commit reset', async () => {
    // Draw 0 (render + grade) = 0.02 is under 0.03, so the first iteration starts; draw 1 (0.02), made
    // beside it, agrees with draw 0 and brings the baseline to 0.04: the loop stops there without judging
    // the edit, as it stopped before the first iteration when the baseline's draws were all made before it.
    const h = await harness(
      { propose: editsInOrder([addLine('SUMMARY')]), usagePerCall: { costUsd: 0.01 } },
      { perSkillIterations: 5, trials: 3, keepRule: 'noise-aware', maxCostUsd: 0.03 },
    );
    const models = h.input.models as ReturnType<typeof createScriptedModels>;
    const result = await runSkillLoop(h.input);
    expect(result.stopReason).toBe('cost budget');
    expect(result.iterations).toBe(0);
    expect((await tsv(h.resultsFile)).map((r) => [r.status, r.description])).toEqual([
      ['baseline', '[absolute] initial baseline (mean of 2 trials, sd 0.0000)'],
    ]);
    expect(models.calls.propose).toHaveLength(1);
    // Draws 0 and 1, the edit's draw and the uplift's (a report, joined before the result).
    expect(models.calls.render).toHaveLength(4);
    // The baseline's 0.04, the unjudged iteration's 0.03 (editor, render, grade) and the uplift's 0.02.
    expect(result.usage.costUsd).toBeCloseTo(0.09, 9);
    expect(head(h.worktreePath)).toBe(h.baseCommit);
  });
});
