/**
 * Cross-checks the TypeScript metrics against a Python reference written with Python's own primitives
 * (test/fixtures/structural_reference.py), on hand-picked edge cases and seeded random documents.
 * Skipped where python3 is not installed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '../../../src/core/iterate/score-types.js';
import { scoreStructure } from '../../../src/core/iterate/structural.js';

const python = spawnSync('python3', ['--version']).status === 0;
const reference = path.join(import.meta.dirname, '..', '..', 'fixtures', 'structural_reference.py');

let tmp: string;
let skillDir: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'structural-py-'));
  skillDir = path.join(tmp, 'repo', '.claude', 'skills', 'demo');
  for (const file of ['ref.md', 'docs/guide one.md', 'héllo.md', 'helper.md']) {
    fs.mkdirSync(path.dirname(path.join(skillDir, file)), { recursive: true });
    fs.writeFileSync(path.join(skillDir, file), '');
  }
  const memory = path.join(tmp, '.claude', 'projects', '-tmp-repo', 'memory');
  fs.mkdirSync(memory, { recursive: true });
  fs.writeFileSync(path.join(memory, 'feedback_tone.md'), '');
  fs.writeFileSync(path.join(memory, 'style.md'), '');
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const EDGE_CASES = [
  '',
  '\uFEFF',
  '\n\n\n',
  '# T\r\n## Steps\r\n#### Deep\r\n',
  '# T\r## Constraints:\r### limitations?!\r#### ok\r',
  'a\vb\fc\x1cd\x1de\x1ef\x85g\u2028h\u2029i\x1fj',
  '\uFEFF' + 'x'.repeat(150) + '\n' + '😀'.repeat(150) + '\n' + '😀'.repeat(151) + '\n' + 'é'.repeat(151),
  'As an AI I think; İ think; ı cannot; AI cannot; ſhould ' + 'Should '.repeat(10),
  'think I think_ I thinks (I think) "I cannot" as an ai-model',
  '```\nI think\n```\nshould '.repeat(6),
  '[a](ref.md) [b](docs/guide%20one.md#x) [c](h%C3%A9llo.md?q) [d](missing/../ref.md) [e](%zz.md)',
  '[x](<ref.md>) [y](ref.md "title") [z](  ) [w](#top) [v](HTTPS://a) [u](mailto:x) [t](ftp://y) [s](tel:1)',
  '[multi\nline](ref.md) ![img](helper.md)',
  '[[helper]] [[helper#a]] [[#only]] [[tone]] [[style]] [[ nope ]] [[docs]] [[missing]]',
  '```sh\nx\n```\n```\ny\n```\n    ```\n ```python\n   ```\n```text\nz',
  '````\n```\n````',
  "---\nname: x\n---\nUse a.\nDon't b.\nDont c.\nUsage d.\n  Always e.\n- Run\n1. Run\n1.5 x\n*Run*\n+ Run\n#Run\nRun\u00a0z",
  '## A\n#### B\n### C\n#### D\n## E\n##### F\n####\tG\n#### \n',
  '## \u3000Steps\u3000\n##\u00a0Constraints\n#\x1fLimitations',
];

const FRAGMENTS = [
  '# Title',
  '## Steps',
  '## Constraints.',
  '### Limitations',
  '#### Detail',
  '## Usage',
  '```',
  '```sh',
  '   ```json',
  '    ```',
  '',
  '   ',
  'Use the tool carefully.',
  "Don't guess the answer.",
  'Run it twice if it should fail.',
  'The reason is that it should work.',
  'I think this is right, as an AI would say.',
  'The AI cannot help here; I cannot either.',
  '- Run the linter',
  '* Check the output',
  '3. Commit the change',
  'See [the guide](docs/guide%20one.md) or [gone](gone.md).',
  'Read [[helper]] and [[tone#x]] and [[unknown]].',
  'Long: ' + 'word '.repeat(40),
  'Emoji: ' + '😀'.repeat(143),
  'Emoji: ' + '😀'.repeat(144),
  'Note: \u00e9t\u00e9 ' + 'é'.repeat(150),
  '\ttabbed Always indented',
  '| a | b |',
  '## Steps :',
  '#### ',
  '1.\tRun this',
  'Use_case one.',
  'Run2 things.',
  "Dont' do it.",
];

/** Mulberry32: a small seeded generator so failures reproduce. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomDocuments(count: number): string[] {
  const random = seeded(20240601);
  const separators = ['\n', '\r\n', '\r', '\n'];
  return Array.from({ length: count }, () => {
    const lineCount = 1 + Math.floor(random() * 30);
    const eol = separators[Math.floor(random() * separators.length)]!;
    const rows = Array.from({ length: lineCount }, () => FRAGMENTS[Math.floor(random() * FRAGMENTS.length)]!);
    return rows.join(eol) + (random() < 0.5 ? eol : '');
  });
}

interface PythonScore {
  score: number;
  metrics: Record<string, number>;
}

function pythonScores(docs: Array<{ text: string; required: string[] | null }>): PythonScore[] {
  const input = JSON.stringify(docs.map((doc) => ({ ...doc, skill_dir: skillDir })));
  const run = spawnSync('python3', [reference], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`python reference failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as PythonScore[];
}

describe.skipIf(!python)('structural metrics agree with the Python reference', () => {
  it('on edge cases and 300 random documents, every metric and the mean to 1e-9', () => {
    const texts = [...EDGE_CASES, ...randomDocuments(300)];
    const docs = texts.flatMap((text) => [
      { text, required: null },
      { text, required: ['Steps', 'usage:', 'Output'] },
    ]);
    const expected = pythonScores(docs);
    const listDir = (p: string) => {
      try {
        return fs.readdirSync(p);
      } catch {
        return [];
      }
    };
    let compared = 0;
    docs.forEach((doc, index) => {
      const ours = scoreStructure(doc.text, {
        skillDir,
        requiredSections: doc.required ?? undefined,
        exists: (p) => fs.existsSync(p),
        listDir,
        reading: 'original',
      });
      const theirs = expected[index]!;
      for (const name of METRIC_NAMES) {
        const context = `${name} of document ${index}: ${JSON.stringify(doc.text.slice(0, 80))}`;
        expect(Math.abs(ours.metrics[name].score - theirs.metrics[name]!), context).toBeLessThan(1e-9);
      }
      expect(Math.abs(ours.score - theirs.score)).toBeLessThan(1e-9);
      compared++;
    });
    expect(compared).toBe(docs.length);
    // The random documents exercise every metric below 1.0 somewhere, so agreement is not vacuous.
    for (const name of METRIC_NAMES) expect(expected.some((r) => r.metrics[name]! < 1)).toBe(true);
  });
});
