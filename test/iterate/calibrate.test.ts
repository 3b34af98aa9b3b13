import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvals, parseScenarios, type SkillEvals } from '../../src/core/iterate/evals.js';
import {
  MUTATION_KINDS,
  TRAILING_GARBAGE,
  applyMutation,
  mutateAll,
} from '../../src/core/iterate/mutations.js';
import { maxLineLength } from '../../src/core/iterate/structural.js';
import { CalibrationError, calibrateSkill } from '../../src/iterate/calibrate.js';
import { RenderCache } from '../../src/iterate/score.js';
import type { GraderInput } from '../../src/ports/models.js';
import { createScriptedModels, type ScriptedModelsOptions } from '../../src/llm/scripted.js';

const FRONTMATTER = ['---', 'name: wrap', 'description: You MUST wrap up. Run it.', '---'];
const SKILL_MD = [
  ...FRONTMATTER,
  '# Wrap',
  '',
  'Use this skill at the end of a session.',
  '',
  '## Steps',
  '',
  '1. Read the notes.',
  '2. Write the summary.',
  '3. Commit the file.',
  '',
  '```bash',
  'git status',
  '```',
  '',
  '## Constraints',
  '',
  '- You MUST keep it under 20 lines.',
  '- Prefer plain words.',
  '',
  '## Limitations',
  '',
  'It cannot see other sessions.',
  '',
].join('\n');

const lines = (text: string | null): string[] => (text ?? '').split('\n');

describe('mutations', () => {
  const apply = (kind: (typeof MUTATION_KINDS)[number], text = SKILL_MD) => applyMutation(kind, text);

  it('there are the ten kinds of the seed, and each applies to a full skill', () => {
    expect(MUTATION_KINDS).toHaveLength(10);
    // The seed's list, in its order: "delete required bullet, paraphrase heading, remove code fence, swap
    // MUST with should, delete section, duplicate paragraph, remove leading imperative, remove constraint
    // line, add trailing garbage, shuffle steps".
    expect([...MUTATION_KINDS]).toEqual([
      'delete-required-bullet',
      'paraphrase-heading',
      'remove-code-fence',
      'swap-must-should',
      'delete-section',
      'duplicate-paragraph',
      'remove-leading-imperative',
      'remove-constraint-line',
      'add-trailing-garbage',
      'shuffle-steps',
    ]);
    const all = mutateAll(SKILL_MD);
    expect(all.map((m) => m.kind)).toEqual([...MUTATION_KINDS]);
    for (const m of all) {
      expect(m.text, m.kind).not.toBeNull();
      expect(m.text, m.kind).not.toBe(SKILL_MD);
      // The frontmatter is never touched.
      expect(lines(m.text).slice(0, 4), m.kind).toEqual(FRONTMATTER);
    }
  });

  it('delete-required-bullet removes the first bullet of a required section', () => {
    const out = lines(apply('delete-required-bullet'));
    expect(out).not.toContain('1. Read the notes.');
    expect(out).toHaveLength(lines(SKILL_MD).length - 1);
  });

  it('paraphrase-heading rewords a required heading', () => {
    const out = lines(apply('paraphrase-heading'));
    expect(out).toContain('## Procedure');
    expect(out).not.toContain('## Steps');
  });

  it('remove-code-fence drops the closing fence of the first block', () => {
    const out = lines(apply('remove-code-fence'));
    expect(out.filter((l) => l.startsWith('```'))).toEqual(['```bash']);
  });

  it('swap-must-should weakens MUST outside the frontmatter', () => {
    const out = apply('swap-must-should') ?? '';
    expect(out).toContain('- You should keep it under 20 lines.');
    expect(out).toContain('description: You MUST wrap up.');
  });

  it('delete-section removes a whole required section up to the next heading', () => {
    const out = lines(apply('delete-section'));
    expect(out).not.toContain('## Steps');
    expect(out).not.toContain('git status');
    expect(out).toContain('## Constraints');
  });

  it('duplicate-paragraph repeats the first paragraph', () => {
    const out = lines(apply('duplicate-paragraph'));
    expect(out.filter((l) => l === 'Use this skill at the end of a session.')).toHaveLength(2);
  });

  it('remove-leading-imperative strips the first imperative verb', () => {
    const out = lines(apply('remove-leading-imperative'));
    expect(out).toContain('This skill at the end of a session.');
    expect(out).not.toContain('Use this skill at the end of a session.');
  });

  it('remove-constraint-line removes a line of the Constraints section', () => {
    const out = lines(apply('remove-constraint-line'));
    expect(out).not.toContain('- You MUST keep it under 20 lines.');
    expect(out).toContain('- Prefer plain words.');
  });

  it('remove-constraint-line falls back to the first rule-like line when there is no Constraints section', () => {
    const text = ['# T', '', 'Read the notes first.', 'Never push to main.', ''].join('\n');
    expect(lines(applyMutation('remove-constraint-line', text))).toEqual([
      '# T',
      '',
      'Read the notes first.',
      '',
    ]);
  });

  it('add-trailing-garbage appends one over-long junk line', () => {
    const out = apply('add-trailing-garbage') ?? '';
    expect(out.startsWith(SKILL_MD)).toBe(true);
    expect(out.trimEnd().endsWith(TRAILING_GARBAGE)).toBe(true);
    expect(TRAILING_GARBAGE.length).toBeGreaterThan(150);
    // Exactly one new line, longer than the structural limit: max_line_length counts it.
    expect(TRAILING_GARBAGE).toHaveLength(199);
    expect(lines(out).filter((line) => line === TRAILING_GARBAGE)).toHaveLength(1);
    expect(maxLineLength(lines(SKILL_MD)).over).toBe(0);
    expect(maxLineLength(lines(out)).over).toBe(1);
  });

  it('shuffle-steps reverses the Steps list and keeps the numbering', () => {
    const out = lines(apply('shuffle-steps'));
    const start = out.indexOf('## Steps') + 2;
    expect(out.slice(start, start + 3)).toEqual([
      '1. Commit the file.',
      '2. Write the summary.',
      '3. Read the notes.',
    ]);
  });

  it('kinds that find nothing to mutate return null', () => {
    const bare = '# Title\n\nhello there\n';
    const applied = Object.fromEntries(mutateAll(bare).map((m) => [m.kind, m.text !== null]));
    expect(applied).toEqual({
      'delete-required-bullet': false,
      'paraphrase-heading': true,
      'remove-code-fence': false,
      'swap-must-should': false,
      'delete-section': false,
      'duplicate-paragraph': true,
      'remove-leading-imperative': false,
      'remove-constraint-line': false,
      'add-trailing-garbage': true,
      'shuffle-steps': false,
    });
  });

  it('honours configured required sections', () => {
    const text = ['# T', '', '## Intro', '', '- a', '', '## Rules', '', '- b', ''].join('\n');
    expect(
      lines(applyMutation('delete-required-bullet', text, { requiredSections: ['Rules'] })),
    ).not.toContain('- b');
    expect(lines(applyMutation('delete-required-bullet', text))).not.toContain('- a');
  });
});

let skillDir: string;
beforeAll(async () => {
  skillDir = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-calibrate-'));
});
afterAll(async () => {
  await rm(skillDir, { recursive: true, force: true });
});

function skillEvals(): SkillEvals {
  const evals = parseEvals(
    JSON.stringify({ categories: [{ name: 'All', evals: [{ id: 1, statement: 'Follows the skill.' }] }] }),
  );
  const scenarios = parseScenarios(
    JSON.stringify({ scenarios: [{ id: 's1', context: 'c', expected_assertions: [1] }] }),
    evals,
  );
  return { evals, scenarios, requiredSections: undefined };
}

/** The render echoes the skill, so the grader sees exactly what was mutated. */
function request(options: ScriptedModelsOptions, skillMd = SKILL_MD) {
  const models = createScriptedModels({ render: (input) => input.skillMd, ...options });
  return {
    models,
    req: {
      skillName: 'wrap',
      skillDir,
      skillMd,
      evals: skillEvals(),
      models,
      mode: 'absolute' as const,
      concurrency: 2,
      signal: new AbortController().signal,
      cache: new RenderCache(),
    },
  };
}

const verdictWhen = (pass: (output: string) => boolean) => (input: GraderInput) => ({
  verdicts: { '1': { verdict: pass(input.output), reason: 'r' } },
});

describe('calibrateSkill', () => {
  it('a grader that notices any change catches every applied mutation → ok', async () => {
    const { req, models } = request({ grade: verdictWhen((out) => out === SKILL_MD) });
    const result = await calibrateSkill(req);
    expect(result.verdict).toBe('ok');
    expect(result.catchRate).toBe(1);
    expect(result.baselineScore).toBe(1);
    expect(result.mutations).toHaveLength(10);
    expect(result.mutations.every((m) => m.applied && m.caught && m.score === 0)).toBe(true);
    // 1 baseline + 10 mutated copies, one render each.
    expect(models.calls.render).toHaveLength(11);
  });

  it('a grader that passes everything catches nothing → grader-broken-for-skill', async () => {
    const { req } = request({ grade: verdictWhen(() => true) });
    const result = await calibrateSkill(req);
    expect(result.verdict).toBe('grader-broken-for-skill');
    expect(result.catchRate).toBe(0);
    expect(result.threshold).toBe(0.7);
  });

  it('the catch rate counts only applied mutations (hand-computed)', async () => {
    // No code fence, no MUST: those two kinds cannot apply → 8 applied.
    const skill = SKILL_MD.replace('```bash\ngit status\n```\n\n', '').replaceAll('MUST', 'will');
    // The grader only notices a missing "## Steps" heading: paraphrase-heading and delete-section → 2 of 8.
    const { req } = request({ grade: verdictWhen((out) => out.includes('## Steps')) }, skill);
    const result = await calibrateSkill(req);
    const notApplied = result.mutations.filter((m) => !m.applied).map((m) => m.kind);
    expect(notApplied.sort()).toEqual(['remove-code-fence', 'swap-must-should']);
    expect(
      result.mutations
        .filter((m) => m.caught)
        .map((m) => m.kind)
        .sort(),
    ).toEqual(['delete-section', 'paraphrase-heading']);
    expect(result.catchRate).toBeCloseTo(2 / 8, 12);
    expect(result.verdict).toBe('grader-broken-for-skill');
    const lenient = await calibrateSkill(
      request({ grade: verdictWhen((out) => out.includes('## Steps')) }, skill).req,
      0.25,
    );
    expect(lenient.verdict).toBe('ok');
  });

  it('an AMBIGUOUS render of a mutated copy counts as caught', async () => {
    const { req } = request({
      render: (input) => (input.skillMd === SKILL_MD ? 'fine' : 'AMBIGUOUS: cannot follow this'),
      grade: verdictWhen(() => true),
    });
    const result = await calibrateSkill(req);
    expect(result.catchRate).toBe(1);
    expect(result.mutations.every((m) => m.status === 'ambiguous' && m.score === null)).toBe(true);
  });

  it('a harness failure is a CalibrationError, not a verdict', async () => {
    const { req } = request({
      grade: () => {
        throw new Error('HTTP 500');
      },
    });
    await expect(calibrateSkill(req)).rejects.toThrow(CalibrationError);
    await expect(calibrateSkill(req)).rejects.toThrow(/baseline scored harness-error: HTTP 500/);
  });
  it('reports what its scorings cost: every render and grade, also when it fails part way', async () => {
    const { req, models } = request({
      grade: verdictWhen((out) => out === SKILL_MD),
      usagePerCall: { inputTokens: 10, costUsd: 0.01 },
    });
    const result = await calibrateSkill(req);
    const calls = models.calls.render.length + models.calls.grade.length;
    expect(calls).toBe(22);
    expect(result.usage).toMatchObject({ calls, inputTokens: 10 * calls });
    expect(result.usage.costUsd).toBeCloseTo(0.01 * calls, 9);

    let grades = 0;
    const failing = request({
      grade: (input) => {
        // The baseline and two mutated copies grade; the third copy's grader breaks.
        if (++grades > 3) throw new Error('HTTP 500');
        return verdictWhen((out) => out === SKILL_MD)(input);
      },
      usagePerCall: { costUsd: 0.01 },
    });
    const error = await calibrateSkill(failing.req).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalibrationError);
    // 3 renders + 3 grades answered, plus the render of the copy whose grade failed.
    expect((error as CalibrationError).usage.calls).toBe(7);
  });
});
