import { describe, expect, it } from 'vitest';
import {
  guessFenceLanguage,
  proposeOfflineEdit,
  type OfflineEdit,
} from '../../../src/core/iterate/offline-edits.js';
import { splitLongLine } from '../../../src/core/iterate/line-split.js';
import type { Scenario } from '../../../src/core/iterate/evals.js';
import { codePointLength } from '../../../src/core/iterate/markdown.js';
import { weakestMetrics, type MetricName } from '../../../src/core/iterate/score-types.js';
import { scoreStructure, type StructuralContext } from '../../../src/core/iterate/structural.js';
import { createOfflineModels, OFFLINE_LABEL } from '../../../src/llm/offline.js';
import { ModelOutputError } from '../../../src/core/model-answers.js';
import type { EditorInput } from '../../../src/ports/models.js';

const ctx: StructuralContext = {
  skillDir: '/nonexistent-skill',
  requiredSections: undefined,
  exists: () => false,
};
const FRONTMATTER = [
  '---',
  'name: demo',
  'description: A demo skill for the offline editor.',
  '---',
  '# Demo',
  '',
];
const doc = (...rows: string[]) => [...FRONTMATTER, ...rows].join('\n') + '\n';
/**
 * With the frontmatter's two prose lines ("name: …", "description: …"), these make 5 prose lines of which
 * 2 are imperative: share 0.4, so rules_to_rationale_ratio is 1.0; the three default sections are present.
 */
const BALANCED = ['## Constraints', '## Limitations', 'Use the tool.', 'Run it twice.', 'The tool is fast.'];
const balanced = (...rows: string[]) => doc(...rows, ...BALANCED);
const structure = (text: string) => scoreStructure(text, ctx);

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Applies an edit the way Step B does: old_string must occur exactly once. */
function apply(text: string, edit: Pick<OfflineEdit, 'old_string' | 'new_string'>): string {
  expect(occurrences(text, edit.old_string)).toBe(1);
  return text.split(edit.old_string).join(edit.new_string);
}

function propose(text: string, revertedDescriptions: string[] = []): OfflineEdit | null {
  return proposeOfflineEdit({ skillMd: text, structural: structure(text), revertedDescriptions });
}

function expectRaises(text: string, edit: OfflineEdit, metric: MetricName): string {
  const after = apply(text, edit);
  expect(structure(after).metrics[metric].score).toBeGreaterThan(structure(text).metrics[metric].score);
  expect(structure(after).score).toBeGreaterThan(structure(text).score);
  // The frontmatter is never touched.
  expect(after.startsWith(FRONTMATTER.slice(0, 4).join('\n') + '\n')).toBe(true);
  return after;
}

function editorInput(text: string, revertedDescriptions: string[] = []): EditorInput {
  return {
    skillName: 'demo',
    skillMd: text,
    mode: 'targeted',
    radical: false,
    topFailure: undefined,
    otherFailures: [],
    passingPairs: [],
    failingRenderExcerpt: undefined,
    revertedDescriptions,
    structural: structure(text),
  };
}

describe('offline edit: label an unlabelled fence', () => {
  it('labels the fence with a guessed language and raises code_fence_balance', () => {
    const text = doc('## Steps', '', 'Install:', '', '```', 'npm install', 'npm test', '```');
    const edit = propose(text)!;
    expect(edit).toMatchObject({
      kind: 'label-fence',
      metric: 'code_fence_balance',
      description: 'offline: label the unlabelled code fence before "npm install" as sh',
    });
    const after = expectRaises(text, edit, 'code_fence_balance');
    expect(after).toContain('```sh\nnpm install\n');
    // 1 opener, now labelled and closed → 1 − 0/1
    expect(structure(after).metrics.code_fence_balance.score).toBe(1);
  });

  it('guesses json, yaml, python, sh and text', () => {
    expect(guessFenceLanguage(['{"a": [1, 2]}'])).toBe('json');
    expect(guessFenceLanguage(['name: demo', 'steps:', '  - run: npm test'])).toBe('yaml');
    expect(guessFenceLanguage(['import os', 'print(os.getcwd())'])).toBe('python');
    expect(guessFenceLanguage(['$ git status'])).toBe('sh');
    expect(guessFenceLanguage(['#!/usr/bin/env bash', 'set -e'])).toBe('sh');
    expect(guessFenceLanguage(['## Summary', 'Three bullet points.'])).toBe('text');
    expect(guessFenceLanguage(['{ not json'])).toBe('text');
    expect(guessFenceLanguage([])).toBe('text');
  });
});

describe('offline edit: close an unclosed fence', () => {
  it('closes a labelled fence before the next H2, after its last non-blank line', () => {
    const text = doc('## Steps', '', '```sh', 'npm test', '', '## Constraints', '', 'Keep it short.');
    const edit = propose(text)!;
    expect(edit).toMatchObject({ kind: 'close-fence', metric: 'code_fence_balance' });
    const after = expectRaises(text, edit, 'code_fence_balance');
    expect(after).toContain('```sh\nnpm test\n```\n\n## Constraints\n');
  });

  it('labels an unlabelled unclosed fence in the same edit (closing alone would not raise the score)', () => {
    const text = doc('## Steps', '', '```', '{"a": 1}');
    const edit = propose(text)!;
    expect(edit.description).toBe(
      'offline: close the unclosed code fence before "{"a": 1}" and label it json',
    );
    const after = expectRaises(text, edit, 'code_fence_balance');
    expect(after.endsWith('```json\n{"a": 1}\n```\n')).toBe(true);
  });
});

describe('offline edit: split an over-long line', () => {
  const long =
    'Run the formatter before every commit so that the diff stays small and reviewers only see the change that matters. ' +
    'Check the history afterwards so the people who come after you can bisect a regression quickly.';

  it('splits at a sentence end into lines of at most 150 characters and raises max_line_length', () => {
    expect(codePointLength(long)).toBe(209);
    const text = doc('## Steps', '', long);
    const edit = propose(text)!;
    expect(edit).toMatchObject({ kind: 'split-line', metric: 'max_line_length' });
    expect(edit.description).toBe(
      'offline: split the 209-character line starting "Run the formatter before every commit so…" at sentence ends',
    );
    const after = expectRaises(text, edit, 'max_line_length');
    expect(after).toContain('that matters.\nCheck the history');
    expect(structure(after).metrics.max_line_length).toMatchObject({ score: 1, over: 0 });
  });

  it('does not propose a split that would lower the structural score as a whole', () => {
    // Before: 9 lines, 1 over → 8/9; prose name, description, "Run…" = 3 lines, 1 imperative → share 1/3.
    // A split adds the prose line "It keeps…" (not imperative): line length +1/9, but share 1/4 → rules −0.167.
    const plain = long.replace('Check the history afterwards so', 'It keeps the history readable so');
    expect(propose(doc('## Steps', '', plain))).toBeNull();
  });

  it('indents list-item continuations and never breaks inside inline code or links', () => {
    const item = `- Use ${'`npm run build -- --watch --verbose`'} ${'and then '.repeat(12)}[the long guide](docs/guide.md) ${'word '.repeat(10)}end`;
    const split = splitLongLine(item)!;
    expect(split.pieces.length).toBeGreaterThan(1);
    for (const piece of split.pieces) expect(codePointLength(piece)).toBeLessThanOrEqual(150);
    for (const piece of split.pieces.slice(1))
      expect(piece.startsWith('  ') && !piece.startsWith('   ')).toBe(true);
    const joined = split.pieces.map((piece) => piece.trim()).join(' ');
    expect(joined).toBe(item);
    expect(split.pieces.some((piece) => piece.includes('[the long guide](docs/guide.md)'))).toBe(true);
    expect(split.pieces.some((piece) => piece.includes('`npm run build -- --watch --verbose`'))).toBe(true);
  });

  it('splits a 20 000-character paragraph into pieces that all fit, in linear time', () => {
    const huge = 'Lorem ipsum dolor sit amet, 😀 consectetur. '.repeat(500);
    const split = splitLongLine(huge)!;
    expect(split.pieces.length).toBeGreaterThan(100);
    for (const piece of split.pieces) expect(codePointLength(piece)).toBeLessThanOrEqual(150);
    expect(split.pieces.join(' ')).toBe(huge);
  });

  it('leaves a line alone when it has no space to break at', () => {
    expect(splitLongLine('x'.repeat(200))).toBeNull();
  });
});

describe('offline edit: fix an H2 → H4 jump', () => {
  it('turns the H4 into an H3 and raises section_depth_consistency', () => {
    const text = doc('## Steps', '', '#### Setup', '', 'Install it.');
    const edit = propose(text)!;
    expect(edit).toMatchObject({
      kind: 'fix-heading-jump',
      metric: 'section_depth_consistency',
      old_string: '#### Setup',
      new_string: '### Setup',
    });
    const after = expectRaises(text, edit, 'section_depth_consistency');
    expect(structure(after).metrics.section_depth_consistency).toMatchObject({ score: 1, violations: 0 });
  });
});

describe('offline edit: drop a duplicated paragraph', () => {
  // Not imperative, so dropping a copy leaves the imperative share (0 of 6 → 0 of 5 prose lines) unchanged.
  const paragraph = 'The output is checked twice before it goes back to the user.';

  it('drops the second copy when no metric-targeted edit applies', () => {
    // Enough other words that the substance factor is 1 with one copy as with two (§ Structural metrics).
    const background = [
      'The report lists every file the change touched, with the lines added and removed in each of them.',
      'The summary at the top of the report names the owner of the change and the reviewers who read it.',
      'The reviewers look for missing tests, unclear names and comments that no longer match the code.',
      'The report is written in plain words, so that a reader new to the project can follow every part.',
      'The report ends with the open questions, each one with the name of the person who can answer it.',
    ];
    const text = doc(
      '## Steps',
      '',
      paragraph,
      '',
      'Some rationale here.',
      '',
      ...background,
      '',
      paragraph,
      '',
      'End of the file here.',
    );
    const edit = propose(text)!;
    expect(edit).toMatchObject({ kind: 'drop-duplicate', metric: null });
    expect(edit.description).toBe(
      'offline: drop the second copy of the duplicated paragraph "The output is checked twice before it go…"',
    );
    const after = apply(text, edit);
    expect(occurrences(after, paragraph)).toBe(1);
    expect(after).toContain(`${background.at(-1)}\n\nEnd of the file here.\n`);
    expect(structure(after).score).toBeGreaterThanOrEqual(structure(text).score);
  });

  it('leaves duplicated paragraphs with links alone (it cannot tell whether they resolve)', () => {
    const linked = 'The output format is described in [the guide](guide.md) in detail.';
    expect(propose(doc('## Steps', '', linked, '', linked))).toBeNull();
  });

  it('ignores duplicates shorter than 40 characters and duplicates inside fences', () => {
    const short = 'Keep it short, please.';
    const fenced = ['```text', paragraph, '```'];
    const text = doc('## Steps', '', short, '', short, '', ...fenced, '', ...fenced);
    expect(propose(text)).toBeNull();
  });
});

describe('choosing the edit', () => {
  it('aims at the weakest metric, breaking ties in METRIC_NAMES order', () => {
    // depth: 1 violation → 0.5; fences: 2 openers, 1 unlabelled → 0.5: a tie, section depth comes first.
    const tie = balanced('## Steps', '#### Deep', '```sh', 'ls', '```', '```', 'ls -la', '```');
    expect(weakestMetrics(structure(tie)).slice(0, 2)).toEqual([
      'section_depth_consistency',
      'code_fence_balance',
    ]);
    expect(propose(tie)!.kind).toBe('fix-heading-jump');
    // fences: 1 opener, unlabelled → 0 < 0.5: the fence comes first.
    const fenceWorse = balanced('## Steps', '#### Deep', '```', 'ls -la', '```');
    expect(propose(fenceWorse)!.kind).toBe('label-fence');
  });

  it('moves on to the next weakest metric when the weakest has no mechanical fix', () => {
    // banned phrases: 3 hits → 0.25, the weakest; no mechanical fix, so the fence (0.5) is next.
    const text = balanced(
      '## Steps',
      'I think so. I think not. I think maybe.',
      '```sh',
      'ls',
      '```',
      '```',
      'ls -la',
      '```',
    );
    expect(weakestMetrics(structure(text))[0]).toBe('banned_phrases');
    expect(propose(text)!.kind).toBe('label-fence');
  });

  it('extends old_string with context lines until it occurs exactly once', () => {
    const block = ['```', 'npm test', '```'];
    const text = doc('## Steps', 'First:', ...block, 'Again:', ...block);
    const edit = propose(text)!;
    expect(edit.kind).toBe('label-fence');
    expect(occurrences(text, edit.old_string)).toBe(1);
    expect(edit.old_string).toBe('First:\n```\nnpm test');
    const after = apply(text, edit);
    expect(after).toContain('First:\n```sh\nnpm test\n```\nAgain:\n```\nnpm test\n```\n');
  });

  it('never touches the frontmatter, even when its line is the only long one', () => {
    const text = ['---', 'name: demo', `description: ${'word '.repeat(40)}`, '---', '# Demo', 'Fine.'].join(
      '\n',
    );
    expect(structure(text).metrics.max_line_length.over).toBe(1);
    expect(propose(text)).toBeNull();
  });

  it('never proposes an edit whose description was reverted, and gives up when none is left', () => {
    const text = doc('## Steps', '#### Deep', '```', 'ls -la', '```');
    const first = propose(text)!;
    expect(first.kind).toBe('label-fence');
    const second = propose(text, [first.description])!;
    expect(second.kind).toBe('fix-heading-jump');
    // Whitespace differences in the recorded description do not matter.
    expect(propose(text, [first.description, `  ${second.description.replace(/ /g, '  ')} `])).toBeNull();
  });

  it('keeps the byte-order mark and the line endings of the file', () => {
    const text = '\uFEFF' + doc('## Steps', '```', 'ls -la', '```').replace(/\n/g, '\r\n');
    const edit = propose(text)!;
    const after = apply(text, edit);
    expect(after.startsWith('\uFEFF---\r\n')).toBe(true);
    expect(after).toContain('```sh\r\nls -la\r\n```\r\n');
  });
});

describe('createOfflineModels', () => {
  it('describes itself as structural-only with no model and no network', () => {
    const models = createOfflineModels();
    expect(models).toMatchObject({ label: OFFLINE_LABEL, structuralOnly: true, renderModelId: 'offline' });
    expect(OFFLINE_LABEL).toBe('offline (structural scoring only: no model, no network)');
  });

  it('proposes the mechanical edit with zero usage', async () => {
    const text = doc('## Steps', '```', 'ls -la', '```');
    const reply = await createOfflineModels().propose(editorInput(text), new AbortController().signal);
    expect(reply.value).toEqual({
      description: 'offline: label the unlabelled code fence before "ls -la" as sh',
      old_string: '```\nls -la',
      new_string: '```sh\nls -la',
    });
    expect(reply.usage).toMatchObject({ calls: 0, inputTokens: 0, outputTokens: 0, costUsd: null });
  });

  it('rejects with ModelOutputError when no mechanical edit applies', async () => {
    const perfect = doc(
      '## Steps',
      '',
      'Use the tool.',
      'The tool is fast.',
      'It is also safe to run twice.',
    );
    expect(structure(perfect).score).toBeLessThan(1); // required sections still miss two names
    const attempt = createOfflineModels().propose(editorInput(perfect), new AbortController().signal);
    await expect(attempt).rejects.toBeInstanceOf(ModelOutputError);
    await expect(attempt).rejects.toThrow('offline editor: no mechanical edit applies');
  });

  it('honours the abort signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('iteration timed out'));
    const attempt = createOfflineModels().propose(editorInput(doc('```', 'x', '```')), controller.signal);
    await expect(attempt).rejects.toThrow('iteration timed out');
  });

  it('refuses to render or grade', async () => {
    const models = createOfflineModels();
    const signal = new AbortController().signal;
    const scenario: Scenario = { id: 's1', context: 'We spent three hours on a flaky test.' };
    await expect(models.render({ skillName: 'demo', skillMd: '# Demo', scenario }, signal)).rejects.toThrow(
      /offline provider: there is no render model/,
    );
    const grading = models.grade(
      { skillName: 'demo', scenario, output: 'x', assertions: [], trial: 1 },
      signal,
    );
    await expect(grading).rejects.toThrow(/offline provider: there is no grade model/);
  });
});
