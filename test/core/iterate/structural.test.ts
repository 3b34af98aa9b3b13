import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '../../../src/core/iterate/score-types.js';
import { describeMetric } from '../../../src/core/iterate/editor-prompt.js';
import { scoreStructure, type StructuralContext } from '../../../src/core/iterate/structural.js';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'structural-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/*
 * These tests pin the original's reading (the origin-parity tests, `reading: 'original'`); skillclimb's own
 * reading, where it differs (code is not prose, substance), is tested in structural-reading.test.ts.
 */

/** A context backed by the real filesystem, as the engine builds it. */
function realContext(skillDir: string, requiredSections?: string[], withListDir = true): StructuralContext {
  const ctx: StructuralContext = {
    skillDir,
    requiredSections,
    exists: (p) => fs.existsSync(p),
    reading: 'original',
  };
  if (withListDir) {
    ctx.listDir = (p) => {
      try {
        return fs.readdirSync(p);
      } catch {
        return [];
      }
    };
  }
  return ctx;
}

function writeFile(file: string, content = ''): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** A context for texts that have no links or refs: nothing exists. */
const bare = (requiredSections?: string[]): StructuralContext => ({
  skillDir: '/nonexistent-skill',
  requiredSections,
  exists: () => false,
  reading: 'original',
});

const lines = (...rows: string[]) => rows.join('\n') + '\n';

describe('section_depth_consistency', () => {
  it('counts H4s whose nearest H2/H3 is an H2, fences included', () => {
    const text = lines(
      '# Title',
      '## A',
      '#### a1', // nearest H2/H3 is "## A" → violation 1
      '### B',
      '#### b1', // nearest is "### B" → fine
      '## C',
      '##### c5', // H5s are not judged
      '#### c4', // nearest is "## C" → violation 2
      '```sh',
      '#### inside a fence', // headings count wherever they stand → violation 3
      '```',
    );
    const metric = scoreStructure(text, bare()).metrics.section_depth_consistency;
    // 3 violations → 1 / (1 + 3) = 0.25
    expect(metric).toMatchObject({ score: 0.25, violations: 3 });
  });

  it('scores 1.0 when an H4 follows an H1 only (no H2/H3 before it)', () => {
    const metric = scoreStructure(lines('# T', '#### x'), bare()).metrics.section_depth_consistency;
    expect(metric).toMatchObject({ score: 1, violations: 0 });
  });
});

describe('required_sections', () => {
  it('matches default names case-insensitively, ignoring trailing :.?!', () => {
    const text = lines('# Skill', '## Steps:', '### constraints?!', '##Limitations', '## Limitations list');
    const metric = scoreStructure(text, bare()).metrics.required_sections;
    // Steps and Constraints present; "##Limitations" is no heading and "Limitations list" is another name.
    // 2 of 3 → 0.666…
    expect(metric.score).toBeCloseTo(2 / 3, 12);
    expect(metric).toMatchObject({ present: 2, required: 3, missing: ['Limitations'] });
  });

  it('scores 1.0 without a config file when none of the defaults is used', () => {
    const metric = scoreStructure(lines('# Skill', '## Usage'), bare()).metrics.required_sections;
    // Exempt: nothing is required, so nothing is listed as missing (a score of 1 beside three missing
    // sections read as a contradiction).
    expect(metric).toEqual({ score: 1, exempt: true, present: 0, required: 0, missing: [] });
    expect(describeMetric('required_sections', metric)).toBe(
      'exempt: no required sections are set and the skill uses none of the default ones (Steps, Constraints, Limitations), so none is required',
    );
  });

  it('scores 0 when a config file lists sections of which none is present', () => {
    const metric = scoreStructure(lines('# Skill', '## Usage'), bare(['Steps', 'Output'])).metrics
      .required_sections;
    // 0 of 2 → 0; the exemption applies only to the defaults.
    expect(metric).toMatchObject({ score: 0, present: 0, required: 2, missing: ['Steps', 'Output'] });
  });

  it('scores 1.0 for an empty required list and counts a heading inside a fence', () => {
    expect(scoreStructure(lines('# x'), bare([])).metrics.required_sections.score).toBe(1);
    const fenced = scoreStructure(lines('```md', '## Output', '```'), bare(['Output'])).metrics
      .required_sections;
    expect(fenced.score).toBe(1);
  });
});

describe('banned_phrases', () => {
  it('counts whole-word phrases outside fences, plus one hit for more than 10 "should"s', () => {
    const text = lines(
      'As an AI, I think this works.', // "as an AI" + "I think" → 2
      'The AI cannot do that.', // "AI cannot" is not the word "I" → 0
      'i CANNOT stop; I think so.', // "I cannot" + "I think" → 2
      '```text',
      'I think inside code does not count. should should',
      '```',
      'You should, should, should, should, should.', // 5 × should
      'It should should should should should, shoulder.', // 5 × should ("shoulder" is another word)
      'One more should.', // 11th should → 11 > 10 → +1 hit
    );
    const metric = scoreStructure(text, bare()).metrics.banned_phrases;
    // hits = 2 + 2 + 1 = 5 → 1 / (1 + 5) = 1/6
    expect(metric.score).toBeCloseTo(1 / 6, 12);
    expect(metric).toMatchObject({
      hits: 5,
      should_count: 11,
      found: { 'as an AI': 1, 'I think': 2, 'I cannot': 1 },
    });
  });

  it('does not add the "should" hit at exactly 10 outside fences', () => {
    const text = lines('should '.repeat(10), '```', 'should should', '```');
    const metric = scoreStructure(text, bare()).metrics.banned_phrases;
    // 10 outside (the 2 in the fence are not counted) → not more than 10 → 0 hits → 1/(1+0)
    expect(metric).toMatchObject({ score: 1, hits: 0, should_count: 10 });
  });
});

describe('link_integrity', () => {
  it('resolves relative links from the skill folder, skipping external and anchor-only ones', () => {
    const skillDir = path.join(tmp, 'links', 'skill');
    writeFile(path.join(skillDir, 'ref.md'));
    writeFile(path.join(skillDir, 'docs', 'guide one.md'));
    const text = lines(
      'See [a](ref.md), [b](docs/guide%20one.md#part) and [c](ref.md?x=1).', // 3 valid
      'Broken: [d](missing.md) and ![img](../outside.png).', // 2 broken
      'Skipped: [e](https://x.y/a.md) [f](mailto:a@b.c) [g](#anchor) [h](FTP://host/x) [i](http://z)',
      '```md',
      '[j](ref.md)', // fences are not excluded → valid
      '```',
    );
    const metric = scoreStructure(text, realContext(skillDir)).metrics.link_integrity;
    // total 6 (a b c d img j), valid 4 → 4/6
    expect(metric.score).toBeCloseTo(4 / 6, 12);
    expect(metric).toMatchObject({ valid: 4, total: 6, broken: ['missing.md', '../outside.png'] });
  });

  it('tells a broken link inside inline code or a fenced block apart from one in the prose, scoring both as the original does', () => {
    const skillDir = path.join(tmp, 'links-in-code', 'skill');
    writeFile(path.join(skillDir, 'ref.md'));
    const text = lines(
      'Write links as `[t](url)`; see [a](ref.md) and [b](gone.md).',
      '```md',
      '[c](example.md)',
      '```',
    );
    const metric = scoreStructure(text, realContext(skillDir)).metrics.link_integrity;
    // The score stays the original's: four links, one valid.
    expect(metric.score).toBeCloseTo(1 / 4, 12);
    expect(metric).toEqual({
      score: metric.score,
      valid: 1,
      total: 4,
      broken: ['gone.md'],
      broken_in_code: ['url', 'example.md'],
    });
    expect(describeMetric('link_integrity', metric)).toBe(
      '3 of 4 relative links do not resolve: gone.md; 2 of them inside code (url, example.md), which the metric counts as links too',
    );
  });

  it('scores 1.0 with no relative links', () => {
    const metric = scoreStructure(lines('[x](https://example.com)', '[y](#top)'), bare()).metrics
      .link_integrity;
    expect(metric).toMatchObject({ score: 1, valid: 0, total: 0 });
  });
});

describe('code_fence_balance', () => {
  it('pairs openers and closers, counting unclosed and closed-but-unlabelled openers', () => {
    const text = lines(
      '```sh', // opener 1, labelled
      'x',
      '```', // closer
      '```', // opener 2, unlabelled
      'y',
      '```', // closer → closed without a language: 1
      '    ```', // four spaces: not a fence
      '~~~', // tildes: not a fence
      ' ```python', // opener 3, labelled (one space of indent is fine)
      'z',
      '   ```', // closer (three spaces)
      '```text', // opener 4, never closed: 1
      'tail',
    );
    const metric = scoreStructure(text, bare()).metrics.code_fence_balance;
    // 1 − (1 unclosed + 1 unlabelled) / 4 openers = 0.5
    expect(metric).toMatchObject({ score: 0.5, openers: 4, unclosed: 1, unlabelled: 1 });
  });

  it('does not count an unclosed unlabelled opener twice', () => {
    const metric = scoreStructure(lines('```', 'a', '```', '```', 'b'), bare()).metrics.code_fence_balance;
    // opener 1 closed without language (1), opener 2 unclosed (1): 1 − 2/2 = 0
    expect(metric).toMatchObject({ score: 0, openers: 2, unclosed: 1, unlabelled: 1 });
  });

  it('scores 1.0 with no fences', () => {
    expect(scoreStructure(lines('plain'), bare()).metrics.code_fence_balance).toMatchObject({
      score: 1,
      openers: 0,
    });
  });
});

describe('max_line_length', () => {
  it('counts lines over 150 code points among all lines', () => {
    const text = lines('a'.repeat(150), 'b'.repeat(151), '😀'.repeat(150), '');
    const metric = scoreStructure(text, bare()).metrics.max_line_length;
    // 4 lines (the blank one counts); only the 151-char line is over (150 emoji are 150 code points) → 1 − 1/4
    expect(metric).toMatchObject({ score: 0.75, over: 1, lines: 4 });
  });
});

describe('cross_reference_resolution', () => {
  it('resolves [[slug]] beside the SKILL.md and in .claude/projects/*/memory of ancestors', () => {
    const home = path.join(tmp, 'xref', 'home');
    const skillDir = path.join(home, 'repo', '.claude', 'skills', 'demo');
    writeFile(path.join(skillDir, 'helper.md'));
    fs.mkdirSync(path.join(skillDir, 'assets'), { recursive: true });
    writeFile(path.join(home, '.claude', 'projects', 'proj-a', 'memory', 'feedback_tone.md'));
    writeFile(path.join(home, '.claude', 'projects', 'proj-b', 'memory', 'style.md'));
    const text = lines(
      '[[helper]] [[assets#x]]', // helper.md beside; assets folder beside → 2 resolved
      '[[tone]] [[style#y]]', // feedback_tone.md and style.md in home/.claude/projects/*/memory → 2 resolved
      '[[#local]] [[nowhere]]', // anchor-only resolves; nowhere does not
    );
    const metric = scoreStructure(text, realContext(skillDir)).metrics.cross_reference_resolution;
    // 5 of 6
    expect(metric.score).toBeCloseTo(5 / 6, 12);
    expect(metric).toMatchObject({ resolved: 5, total: 6, unresolved: ['nowhere'] });

    // Without listDir the memory lookup is skipped: tone and style no longer resolve → 3 of 6.
    const noGlob = scoreStructure(text, realContext(skillDir, undefined, false)).metrics
      .cross_reference_resolution;
    expect(noGlob).toMatchObject({ score: 0.5, resolved: 3, unresolved: ['tone', 'style', 'nowhere'] });
  });

  it('searches the 8 parents of the skill folder, not the folder itself and nothing further up', () => {
    const base = path.join(tmp, 'deep');
    const skillDir = path.join(base, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i');
    fs.mkdirSync(skillDir, { recursive: true });
    writeFile(path.join(base, 'a', '.claude', 'projects', 'p', 'memory', 'near.md')); // a = 8th parent
    writeFile(path.join(base, '.claude', 'projects', 'p', 'memory', 'far.md')); // base = 9th parent
    writeFile(path.join(skillDir, '.claude', 'projects', 'p', 'memory', 'own.md')); // the skill folder itself
    const metric = scoreStructure('[[near]] [[far]] [[own]]', realContext(skillDir)).metrics
      .cross_reference_resolution;
    expect(metric).toMatchObject({ resolved: 1, total: 3, unresolved: ['far', 'own'] });
  });

  it('scores 1.0 with no references', () => {
    expect(scoreStructure('x', bare()).metrics.cross_reference_resolution).toMatchObject({
      score: 1,
      total: 0,
    });
  });
});

describe('rules_to_rationale_ratio', () => {
  it('takes the imperative share of prose lines and scores its distance from 0.4', () => {
    const text = lines(
      '---', // starts with "-": a list item, excluded
      'name: demo', // prose, "name" is not imperative
      '---',
      '# Title', // heading, excluded
      'Use the tool.', // imperative
      "Don't guess.", // imperative ("Don't" is listed)
      'use lowercase.', // prose, not imperative (case-sensitive)
      'Usage notes here.', // prose, "Usage" is not "Use"
      'The reason is X.', // prose
      '- Run it', // list item, excluded
      '1. Run it', // list item, excluded
      '10.5 percent', // prose, no leading letters → not imperative
      '```sh',
      'Run inside a fence', // fenced, excluded
      '```',
      '   Always indent.', // prose after stripping, imperative
      '', // blank, excluded
    );
    const metric = scoreStructure(text, bare()).metrics.rules_to_rationale_ratio;
    // prose lines: name, Use, Don't, use, Usage, The, 10.5, Always = 8; imperative 3 → share 0.375
    // score = 1 − 2·|0.375 − 0.4| = 1 − 0.05 = 0.95
    expect(metric.score).toBeCloseTo(0.95, 12);
    expect(metric).toMatchObject({ share: 0.375, imperative: 3, prose_lines: 8 });
  });

  it('clamps at 0 when every prose line is imperative, and scores 1.0 with no prose', () => {
    // share 1 → 1 − 2·0.6 = −0.2 → clamped to 0
    expect(scoreStructure(lines('Run a.', 'Stop b.'), bare()).metrics.rules_to_rationale_ratio.score).toBe(0);
    expect(scoreStructure(lines('# T', '- a'), bare()).metrics.rules_to_rationale_ratio).toMatchObject({
      score: 1,
      prose_lines: 0,
    });
  });
});

describe('scoreStructure', () => {
  it('averages the eight metrics of a whole file, frontmatter included', () => {
    const skillDir = path.join(tmp, 'whole');
    writeFile(path.join(skillDir, 'notes.md'));
    const text = [
      '---',
      'name: demo',
      'description: A demo skill.',
      '---',
      '# Demo',
      '## Steps',
      '#### Detail',
      'Use [notes](notes.md) and [gone](gone.md).',
      'I think this is fine.',
      '```',
      'echo hi',
      '```',
      'x'.repeat(151),
      '[[notes]]',
    ].join('\r\n');
    const result = scoreStructure(text, realContext(skillDir));
    // section depth: "#### Detail" under "## Steps" → 1 violation → 1/2 = 0.5
    // required sections: defaults, Steps present → 1/3
    // banned phrases: "I think" → 1 hit → 1/2 = 0.5
    // link integrity: notes.md exists, gone.md does not → 1/2 = 0.5
    // code fence balance: 1 opener, closed, unlabelled → 1 − 1/1 = 0
    // line length: 14 lines, 1 over → 1 − 1/14 = 13/14
    // cross references: [[notes]] → notes.md → 1/1 = 1
    // rules to rationale: prose lines "name: demo", "description: …", "Use …", "I think …", "xxx…", "[[notes]]"
    //   = 6, imperative 1 ("Use") → share 1/6 → 1 − 2·|1/6 − 0.4| = 1 − 2·(7/30) = 16/30 = 8/15
    const expected = [0.5, 1 / 3, 0.5, 0.5, 0, 13 / 14, 1, 8 / 15];
    expect(METRIC_NAMES.map((name) => result.metrics[name].score)).toEqual(
      expected.map((value) => expect.closeTo(value, 12)),
    );
    // mean: over the common denominator 210 the eight are 105 + 70 + 105 + 105 + 0 + 195 + 210 + 112 = 902,
    // so the mean is 902 / 210 / 8 = 451 / 840 ≈ 0.5369048
    expect(result.score).toBeCloseTo(451 / 840, 12);
    expect(Object.keys(result.metrics)).toEqual([...METRIC_NAMES]);
  });

  it('scores an empty file as one empty line (1.0 in the original reading)', () => {
    const result = scoreStructure('', bare());
    expect(result.metrics.max_line_length).toMatchObject({ lines: 1, over: 0, score: 1 });
    // Every metric is vacuously perfect (required sections: no config, no defaults present → 1.0).
    expect(result.score).toBe(1);
  });

  it('ignores a byte-order mark and treats \\r\\n, \\r and \\n alike', () => {
    const unix = '# T\n## Steps\n#### Deep\n' + 'y'.repeat(150) + '\n';
    const variants = [unix, '\uFEFF' + unix, unix.replace(/\n/g, '\r\n'), unix.replace(/\n/g, '\r')];
    const scores = variants.map((text) => scoreStructure(text, bare()));
    for (const result of scores) expect(result).toEqual(scores[0]);
    // Only one mark is dropped, as Python's utf-8-sig does: a second one is text.
    expect(scoreStructure('\uFEFF\uFEFF' + 'z'.repeat(150), bare()).metrics.max_line_length).toMatchObject({
      over: 1,
    });
    // The BOM is not a character of the first line: 150 y's are within the limit.
    expect(scores[1]!.metrics.max_line_length).toMatchObject({ over: 0, lines: 4 });
  });
});

describe('agreement with the original skill-iterate on the cases where they used to differ', () => {
  // Each SKILL.md opens with `---\nname: cN\n---\n# T\n`; the expected values were measured by running the
  // original's structural metrics on the same files (docs/how-it-works.md § Differences from the original skills).
  const skill = (n: number, body: string) => `---\nname: c${n}\n---\n# T\n${body}`;

  it('"## Steps :" is not the Steps section (whitespace before the colon stays)', () => {
    const text = skill(1, '## Steps :\n## Constraints\n## Limitations\n');
    const metric = scoreStructure(text, bare()).metrics.required_sections;
    expect(metric.score).toBeCloseTo(0.666667, 6);
    expect(metric).toMatchObject({ present: 2, missing: ['Steps'] });
  });

  it('an empty H4 ("#### ") under an H2 is a depth violation', () => {
    const metric = scoreStructure(skill(2, '## A\n#### \ntext\n'), bare()).metrics.section_depth_consistency;
    expect(metric).toMatchObject({ score: 0.5, violations: 1 });
  });

  it('"1.<TAB>Run this" is a list item, not prose', () => {
    const text = skill(3, '\n1.\tRun this\nUse that\nBecause reasons\n');
    const metric = scoreStructure(text, bare()).metrics.rules_to_rationale_ratio;
    // prose: "name: c3", "Use that", "Because reasons"; imperative 1 → 1/3 → 1 − 2·|1/3 − 0.4|
    expect(metric.score).toBeCloseTo(0.866667, 6);
    expect(metric).toMatchObject({ imperative: 1, prose_lines: 3 });
  });

  it("the first word ends on a word boundary: Use_case and Run2 are not verbs, Dont' is Dont", () => {
    const text = skill(4, "\nUse_case one.\nRun2 things.\nDont' do it.\nplain\n");
    const metric = scoreStructure(text, bare()).metrics.rules_to_rationale_ratio;
    // prose: name, Use_case, Run2, Dont', plain = 5; imperative only "Dont" → 1/5 → 1 − 2·0.2
    expect(metric.score).toBeCloseTo(0.6, 6);
    expect(metric).toMatchObject({ imperative: 1, prose_lines: 5 });
  });

  it('a memory file inside the skill folder itself does not resolve a [[ref]]', () => {
    const skillDir = path.join(tmp, 'c5', 'c5');
    writeFile(path.join(skillDir, '.claude', 'projects', 'p', 'memory', 'feedback_tone.md'));
    const metric = scoreStructure(skill(5, '\nSee [[tone]].\n'), realContext(skillDir)).metrics
      .cross_reference_resolution;
    expect(metric).toMatchObject({ score: 0, resolved: 0, total: 1, unresolved: ['tone'] });
  });

  it('keeps the deliberate differences: attributed fence labels, tab fences, link titles, whole words', () => {
    const labelled = scoreStructure('```python title="x.py"\nx\n```\n', bare()).metrics.code_fence_balance;
    expect(labelled).toMatchObject({ score: 1, openers: 1, unlabelled: 0 });
    const tabFence = scoreStructure('\t```\nx\n', bare()).metrics.code_fence_balance;
    expect(tabFence).toMatchObject({ score: 1, openers: 0 });
    const dir = path.join(tmp, 'titled');
    writeFile(path.join(dir, 'other.md'));
    const titled = scoreStructure('[t](other.md "Title")\n', realContext(dir)).metrics.link_integrity;
    expect(titled).toMatchObject({ score: 1, valid: 1, total: 1 });
    const words = scoreStructure('The AI cannot help.\n', bare()).metrics.banned_phrases;
    expect(words).toMatchObject({ score: 1, hits: 0 });
  });
});
