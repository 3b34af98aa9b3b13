/**
 * skillclimb's reading of the structural metrics where it differs from the original's
 * (docs/how-it-works.md § Differences from the original): fenced and inline code are no prose for any
 * metric, and a skill with little to say is scaled by its substance. The original's reading is pinned in
 * structural.test.ts and structural-python.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editRefusal } from '../../../src/core/iterate/edit-refusal.js';
import { measureSubstance, substanceLoss } from '../../../src/core/iterate/substance.js';
import { scoreStructure, type StructuralContext } from '../../../src/core/iterate/structural.js';

let tmp: string;
let skillDir: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'structural-reading-'));
  skillDir = path.join(tmp, 'plugins', 'tether', 'skills', 'setup');
  fs.mkdirSync(path.join(skillDir, 'references'), { recursive: true });
  fs.writeFileSync(path.join(skillDir, 'references', 'config.md'), '# Config\n');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const ctx = (reading?: 'original'): StructuralContext => ({
  skillDir,
  requiredSections: undefined,
  exists: (p) => fs.existsSync(p),
  listDir: () => [],
  reading,
});

/** A plugin's setup skill as collections write them: bash and TOML in fences, one real link. */
const SETUP = [
  '---',
  'name: setup',
  'description: Sets up the tether plugin in a new project and checks that its hooks run.',
  '---',
  '# Setup',
  '',
  'Run the installer once per project, then check the hooks. The plugin root is set by the host when the',
  'plugin loads; the script below falls back to the current folder when it is not. See',
  '[the configuration reference](references/config.md) for every key the installer writes.',
  '',
  '## Steps',
  '',
  '1. Run the installer script from the project root.',
  '2. Add the tool table to pyproject.toml.',
  '3. Check that the hook prints its version.',
  '',
  '```bash',
  '# Install from the plugin root',
  'if [[ -n "${CLAUDE_PLUGIN_ROOT:-}" ]]; then',
  '  "${CLAUDE_PLUGIN_ROOT}/bin/install" --project .',
  'fi',
  '[[ -x .tether/hook ]] && .tether/hook --version',
  '```',
  '',
  '```toml',
  '[[tool.tether.hooks]]',
  'name = "pre-commit"',
  'run = "[docs](docs/hooks.md)"',
  '```',
  '',
  'Use `[[name]]` in a hook file to refer to another hook; the installer resolves it at run time.',
  'Never edit the generated files by hand: they are written again on every install, and every change',
  'made to them is lost the next time the installer runs in this project.',
  '',
].join('\n');

describe('fenced and inline code are no prose for any metric', () => {
  it('reads no cross-reference or link inside code: bash [[ ]], TOML [[tool.x]], an example link', () => {
    const ours = scoreStructure(SETUP, ctx());
    expect(ours.metrics.cross_reference_resolution).toMatchObject({ score: 1, total: 0, unresolved: [] });
    expect(ours.metrics.link_integrity).toMatchObject({
      score: 1,
      total: 1,
      valid: 1,
      broken: [],
      broken_in_code: ['docs/hooks.md'],
    });
    // The original reads the code as references and links: what cost 29 of 282 skills an eighth.
    const original = scoreStructure(SETUP, ctx('original'));
    expect(original.metrics.cross_reference_resolution).toMatchObject({ score: 0, total: 4 });
    expect(original.metrics.link_integrity).toMatchObject({ total: 2, valid: 1 });
    expect(ours.score).toBeGreaterThan(original.score);
  });

  it('reads no heading inside a fence: a bash comment is no H1, a Markdown sample no section', () => {
    const text = [
      '## Steps',
      '```bash',
      '#### not a heading',
      '```',
      '```md',
      '## Constraints',
      '## Limitations',
      '```',
    ].join('\n');
    const ours = scoreStructure(text, ctx()).metrics;
    expect(ours.section_depth_consistency).toMatchObject({ score: 1, violations: 0 });
    // Only Steps is a heading: 1 of 3 defaults present.
    expect(ours.required_sections).toMatchObject({ present: 1, missing: ['Constraints', 'Limitations'] });
    const original = scoreStructure(text, ctx('original')).metrics;
    expect(original.section_depth_consistency).toMatchObject({ violations: 1 });
    expect(original.required_sections).toMatchObject({ present: 3 });
  });
});

describe('a score that never rewards deleting the skill', () => {
  it('an empty SKILL.md scores 0, not 1.0 (the original reading still says 1.0)', () => {
    expect(scoreStructure('', ctx()).score).toBe(0);
    expect(scoreStructure('', ctx()).substance).toEqual({ words: 0, needed: 100, factor: 0 });
    expect(scoreStructure('', ctx('original')).score).toBe(1);
    const frontOnly = '---\nname: setup\ndescription: Sets up the plugin.\n---\n';
    expect(scoreStructure(frontOnly, ctx()).score).toBe(0);
  });

  it('a three-line fragment does not outrank a real skill', () => {
    const fragment =
      '---\nname: setup\ndescription: Sets up.\n---\n# Setup\nRun the installer.\nCheck the hook.\n';
    const fragmentScore = scoreStructure(fragment, ctx()).score;
    const real = scoreStructure(SETUP, ctx()).score;
    expect(real).toBeGreaterThan(0.8);
    expect(fragmentScore).toBeLessThan(real);
    expect(fragmentScore).toBeLessThan(0.1);
    // In the original's reading the fragment was the better skill of the two.
    expect(scoreStructure(fragment, ctx('original')).score).toBeGreaterThan(
      scoreStructure(SETUP, ctx('original')).score,
    );
  });

  it('counts words, steps and sections outside the front matter and the code', () => {
    expect(measureSubstance(SETUP)).toEqual({ words: 124, steps: 3, sections: 2 });
  });

  it('calls an edit that keeps less than half of the words, steps or sections a removal, whatever it scores', () => {
    const emptied = SETUP.slice(0, SETUP.indexOf('# Setup'));
    expect(substanceLoss(measureSubstance(SETUP), measureSubstance(emptied))).toBe(
      'removes most of the skill: it keeps 0 of 124 words of instructions, 0 of 3 steps (list items)',
    );
    const trimmed = SETUP.replace(
      'Never edit the generated files by hand:',
      'Do not edit the generated files:',
    );
    expect(substanceLoss(measureSubstance(SETUP), measureSubstance(trimmed))).toBeUndefined();
    // The loop refuses it even in the original's reading, where the emptied file scores higher.
    expect(scoreStructure(emptied, ctx('original')).score).toBeGreaterThan(
      scoreStructure(SETUP, ctx('original')).score,
    );
    expect(
      editRefusal({ before: SETUP, after: emptied, baseline: SETUP, folder: 'setup', file: 'SKILL.md' }),
    ).toMatch(/^removes most of the skill/);
  });

  it('refuses a run of small deletions once the text kept falls below half of the night’s baseline', () => {
    // The kept text already lost the closing rules (124 → 75 words); this edit drops two lines of the
    // opening paragraph (75 → 39): more than half of what it edits is left, less than half of the night's.
    const kept = SETUP.slice(0, SETUP.indexOf('Use `[[name]]`'));
    const lines = kept.split('\n');
    const after = lines.filter((line) => !/^(Run the installer once|plugin loads;)/.test(line)).join('\n');
    expect([measureSubstance(kept).words, measureSubstance(after).words]).toEqual([75, 39]);
    const edit = { before: kept, after, baseline: SETUP, folder: 'setup', file: 'SKILL.md' };
    expect(substanceLoss(measureSubstance(kept), measureSubstance(after))).toBeUndefined();
    expect(editRefusal(edit)).toBe('removes most of the skill: it keeps 39 of 124 words of instructions');
  });
});
