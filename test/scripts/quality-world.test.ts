/**
 * The simulated world of `npm run bench:quality` (scripts/lib/quality-world.mjs and its responder): the
 * truth → grade mapping, the noise and its correlation, the editor's mix, and the roles told apart from
 * the engine's real prompts, so a prompt change that would blind the benchmark fails here.
 */
import { describe, expect, it } from 'vitest';
import { buildEditorPrompt } from '../../src/core/iterate/editor-prompt.js';
import { buildGraderPrompt } from '../../src/core/iterate/grader-prompt.js';
import { applyEdit } from '../../src/core/iterate/hill-climb.js';
import { buildRenderPrompt } from '../../src/core/iterate/render-prompt.js';
import { createQualityResponder, roleOfPrompt } from '../../scripts/lib/quality-responder.mjs';
import {
  ABSOLUTE_WEIGHT,
  applyToRules,
  chooseEdit,
  evalFiles,
  gradeVerdict,
  makeWorld,
  presentRules,
  trueGain,
  truePass,
  trueWeighted,
} from '../../scripts/lib/quality-world.mjs';

const world = makeWorld(7, 3);
const skill = world.skills[0]!;
const { evals, scenarios } = evalFiles(skill);
const assertions = evals.categories.flatMap((c) =>
  c.evals.map((a) => ({ id: a.id, statement: a.statement, category: c.name })),
);

function graderCall(output: string, scenarioIndex = 0) {
  const parts = buildGraderPrompt(
    { scenario: scenarios.scenarios[scenarioIndex]!, output, assertions },
    'm-1',
  );
  return { system: parts.system, text: `${parts.prefix}${parts.user}` };
}

function renderOnce(respond: ReturnType<typeof createQualityResponder>['respond'], text: string, i = 0) {
  const prompt = buildRenderPrompt(text, scenarios.scenarios[i]!);
  const reply = respond({ system: prompt.system, text: prompt.user });
  if (!('text' in reply)) throw new Error('a render answers with text');
  return reply.text;
}

function verdictsOf(reply: unknown): Record<string, boolean> {
  const json = (reply as { json: { verdicts: Record<string, { verdict: boolean }> } }).json;
  return Object.fromEntries(Object.entries(json.verdicts).map(([id, v]) => [id, v.verdict]));
}

describe('bench:quality world', () => {
  it('tells the roles apart by the engine’s own system prompts', () => {
    const editor = buildEditorPrompt({
      skillMd: skill.baselineText,
      mode: 'targeted',
      radical: false,
      topFailure: undefined,
      otherFailures: [],
      passingPairs: [],
      failingRenderExcerpt: undefined,
      revertedDescriptions: [],
      structural: { score: 1, metrics: {} as never },
    });
    expect(roleOfPrompt(editor.system)).toBe('editor');
    expect(roleOfPrompt(graderCall('x').system)).toBe('grader');
    expect(roleOfPrompt(buildRenderPrompt(skill.baselineText, scenarios.scenarios[0]!).system)).toBe(
      'render',
    );
  });

  it('grades exactly by the truth at p = 0', () => {
    const { respond } = createQualityResponder(world, { p: 0 });
    const rules = presentRules(skill, skill.baselineText);
    for (const [i, scenario] of scenarios.scenarios.entries()) {
      const render = renderOnce(respond, skill.baselineText, i);
      const verdicts = verdictsOf(respond(graderCall(render, i)));
      for (const a of assertions)
        expect(verdicts[String(a.id)]).toBe(truePass(skill, rules, a.id, scenario.id));
    }
    // A render without the skill's instructions (an uplift render) applies no rule: nothing passes.
    const bare = renderOnce(respond, 'You are a helpful assistant.');
    expect(Object.values(verdictsOf(respond(graderCall(bare))))).not.toContain(true);
  });

  it('flips verdicts at the rate p, and repeats a share of its mistakes on a re-grade of the same render', () => {
    const p = 0.3;
    const sticky = 0.5;
    let flips = 0;
    let firstFlips = 0;
    let repeated = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const draw = (k: number) =>
        gradeVerdict({ seed: 1, truth: true, p, sticky, renderKey: `render-${i}`, assertion: 1, k }) ===
        false;
      const first = draw(0);
      const second = draw(1);
      flips += Number(first) + Number(second);
      if (first) {
        firstFlips++;
        if (second) repeated++;
      }
    }
    expect(flips / (2 * n)).toBeGreaterThan(p - 0.015);
    expect(flips / (2 * n)).toBeLessThan(p + 0.015);
    // Independent draws would repeat a mistake with probability p; sticky² of them repeat it for sure.
    const expected = sticky ** 2 + (1 - sticky ** 2) * p;
    expect(repeated / firstFlips).toBeGreaterThan(expected - 0.03);
    expect(repeated / firstFlips).toBeLessThan(expected + 0.03);
    // A fresh render of the same text is a different output: its mistakes are its own.
    const { respond } = createQualityResponder(world, { p });
    expect(renderOnce(respond, skill.baselineText)).not.toBe(renderOnce(respond, skill.baselineText));
  });

  it('answers the editor with edits the engine applies, of the kind drawn, about a quarter of them real improvements', () => {
    const { respond, edits } = createQualityResponder(world, { p: 0 });
    const editorCall = (text: string) => {
      const prompt = buildEditorPrompt({
        skillMd: text,
        mode: 'targeted',
        radical: false,
        topFailure: undefined,
        otherFailures: [],
        passingPairs: [],
        failingRenderExcerpt: undefined,
        revertedDescriptions: [],
        structural: { score: 1, metrics: {} as never },
      });
      return { system: prompt.system, text: `${prompt.prefix}${prompt.user}` };
    };
    const kinds: Record<string, number> = { good: 0, neutral: 0, harmful: 0 };
    for (let k = 0; k < 200; k++) {
      const reply = respond(editorCall(skill.baselineText)) as {
        json: { description: string; old_string: string; new_string: string };
      };
      const applied = applyEdit(skill.baselineText, reply.json);
      expect(applied.ok).toBe(true);
      const tag = /\[(edit [^\]]+)\]/.exec(reply.json.description)![1]!;
      const effect = edits.get(tag)!;
      kinds[effect.kind]!++;
      const gain = trueGain(skill, skill.baselineText, applied.ok ? applied.text : '');
      expect(gain).toBeCloseTo(effect.trueDelta, 12);
      if (effect.kind === 'good') expect(gain).toBeGreaterThan(0);
      else if (effect.kind === 'harmful') expect(gain).toBeLessThan(0);
      else expect(gain).toBe(0);
    }
    expect(kinds.good! / 200).toBeGreaterThan(0.15);
    expect(kinds.good! / 200).toBeLessThan(0.35);
    expect(kinds.harmful).toBeGreaterThan(0);
    expect(kinds.neutral).toBeGreaterThan(0);
  });

  it('is reproducible: the same seed builds the same world and draws the same edits', () => {
    const again = makeWorld(7, 3);
    expect(again.skills.map((s) => s.baselineText)).toEqual(world.skills.map((s) => s.baselineText));
    const rules = presentRules(skill, skill.baselineText);
    const options = { seed: 7, k: 3, target: 4, goodEdit: 0.25, harmfulEdit: 0.35 };
    const a = chooseEdit(skill, rules, options)!;
    const b = chooseEdit(again.skills[0]!, rules, options)!;
    expect(applyToRules(rules, a.edit)).toEqual(applyToRules(rules, b.edit));
    expect(trueWeighted(skill, rules) * ABSOLUTE_WEIGHT).toBeLessThan(ABSOLUTE_WEIGHT);
  });
});
