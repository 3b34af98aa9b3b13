/**
 * The world of `npm run bench:review-nights` (scripts/lib/review-nights-world.mjs and its responder): which
 * instruction lines silence which findings, the team's answers written as evals the engine's own Agent
 * Skills reader accepts, and each role answering the engine's real render, grader and editor prompts — so
 * a prompt or format change that would blind the benchmark fails here.
 */
import { describe, expect, it } from 'vitest';
import { readEvalsShape, agentSkillsEvals } from '../../src/core/iterate/agent-skills-evals.js';
import { buildEditorPrompt } from '../../src/core/iterate/editor-prompt.js';
import { buildGraderPrompt } from '../../src/core/iterate/grader-prompt.js';
import { applyEdit } from '../../src/core/iterate/hill-climb.js';
import { buildRenderPrompt } from '../../src/core/iterate/render-prompt.js';
import { buildSilencingProbePrompt } from '../../src/core/iterate/silencing-probe-prompt.js';
import { createNightResponder } from '../../scripts/lib/review-nights-responder.mjs';
import {
  DEFAULTS,
  FALSE_CLASSES,
  HARMFUL,
  REAL_CLASSES,
  appendFeedback,
  baselineSkill,
  hunkOf,
  itemsIn,
  makePull,
  review,
  rulesOf,
  silenced,
  skillText,
  type FeedbackEval,
} from '../../scripts/lib/review-nights-world.mjs';

const always = () => 0;
const base = rulesOf(baselineSkill());
/** A diff holding one hunk of every class, each in its first file. */
const allDiff = [...FALSE_CLASSES, ...REAL_CLASSES].map((c) => hunkOf(c, c.files[0]!)).join('\n');
const everything = {
  stream: 'all',
  index: 0,
  items: [...FALSE_CLASSES, ...REAL_CLASSES].map((c) => ({ c, file: c.files[0]! })),
  diff: allDiff,
};

function evalsFor(found: ReturnType<typeof review>): FeedbackEval[] {
  const evals: FeedbackEval[] = [];
  appendFeedback(evals, everything, found, 1);
  return evals;
}

describe('bench:review-nights world', () => {
  it('silences a false class by its own instruction only, and real defects only by a harmful line', () => {
    const [imports, vendored] = FALSE_CLASSES;
    const withImports = [...base, imports!.instruction!];
    expect(silenced(withImports, imports!)).toBe(true);
    expect(silenced(withImports, vendored!)).toBe(false);
    expect(REAL_CLASSES.some((c) => silenced(withImports, c))).toBe(false);
    const majorOnly = HARMFUL.find((h) => h.id === 'MAJOR_ONLY')!.text;
    const silencedByMajorOnly = [...FALSE_CLASSES, ...REAL_CLASSES]
      .filter((c) => silenced([majorOnly], c))
      .map((c) => c.id);
    expect(silencedByMajorOnly).toStrictEqual(['IMPORT_ORDER', 'TODO', 'MISSING_AWAIT']);
    // The reviewer reports every item of the diff when every draw says so, except what the skill silences.
    expect(review(base, allDiff, always).map((f) => f.c.id)).toHaveLength(8);
    expect(review([...base, imports!.instruction!], allDiff, always).map((f) => f.c.id)).not.toContain(
      'IMPORT_ORDER',
    );
    expect(review(base, allDiff, () => 0.75).map((f) => f.c.id)).toStrictEqual(REAL_CLASSES.map((c) => c.id));
  });

  it('draws pull requests whose diff holds exactly their items', () => {
    for (let i = 0; i < 20; i++) {
      const pull = makePull('1', 'day1', i);
      const key = (x: { c: { id: string }; file: string }) => `${x.c.id}@${x.file}`;
      expect(itemsIn(pull.diff).map(key).sort()).toStrictEqual(pull.items.map(key).sort());
    }
  });

  it('writes the team’s answers as evals the engine reads in the Agent Skills format, one per kind, class and file', () => {
    const found = review(base, allDiff, always);
    const evals = evalsFor(found);
    expect(evals).toHaveLength(8);
    expect(appendFeedback(evals, everything, found, 2)).toBe(0);
    expect(evals[0]!.assertions).toStrictEqual([
      'The review does not report: Imports are not sorted alphabetically in src/orders.ts',
    ]);
    expect(evals.find((e) => e.skillclimb.feedback.kind === 'accepted')!.assertions[0]).toMatch(
      /^The review reports: .* in \S+$/,
    );
    const shape = readEvalsShape(JSON.stringify({ skill_name: 'review-loop-reviewer', evals }), false);
    if (shape.format !== 'agent-skills') throw new Error('expected the Agent Skills format');
    const model = agentSkillsEvals(shape.file, new Map(), undefined);
    expect(model.scenarios.filter((s) => s.holdout === true)).toHaveLength(2);
    expect(model.evals.categories[0]!.evals).toHaveLength(8);
  });

  it('answers the engine’s render and grader prompts from the SKILL.md it is given', () => {
    const { respond } = createNightResponder({ seed: 't', level: { ...DEFAULTS, repeat: 1 }, p: 0 });
    const evals = evalsFor(review(base, allDiff, always));
    const shape = readEvalsShape(JSON.stringify({ evals }), false);
    if (shape.format !== 'agent-skills') throw new Error('expected the Agent Skills format');
    const model = agentSkillsEvals(shape.file, new Map(), undefined);
    const scenario = model.scenarios[0]!; // the import-order dismissal
    const assertion = model.evals.categories[0]!.evals[0]!;
    const grade = (skillMd: string) => {
      const render = buildRenderPrompt(skillMd, scenario);
      const reply = respond({ system: render.system, text: render.user });
      if (!('text' in reply)) throw new Error('a render answers with text');
      const parts = buildGraderPrompt(
        {
          scenario,
          output: reply.text,
          assertions: [{ id: assertion.id, statement: assertion.statement, category: 'Assertions' }],
        },
        'm-1',
      );
      const graded = respond({ system: parts.system, text: `${parts.prefix}${parts.user}` }) as {
        json: { verdicts: Record<string, { verdict: boolean }> };
      };
      return graded.json.verdicts[String(assertion.id)]!.verdict;
    };
    expect(grade(baselineSkill())).toBe(false);
    expect(grade(skillText([...base, FALSE_CLASSES[0]!.instruction!]))).toBe(true);
  });

  it('answers the editor with an edit the engine applies, never one it lists as reverted', () => {
    const { respond, edits } = createNightResponder({ seed: 'e', level: DEFAULTS, p: 0, goodEdit: 1 });
    const call = (reverted: string[]) => {
      const prompt = buildEditorPrompt({
        skillMd: baselineSkill(),
        mode: 'targeted',
        radical: false,
        topFailure: {
          assertion_id: 1,
          scenario_id: '1',
          category_name: 'Assertions',
          category_weight: 1,
          statement: 'The review does not report: A TODO comment is left in the code in src/jobs.ts',
          source: '',
          defect_type: 'unspecified',
          grader_reason: 'the review misses it',
        },
        otherFailures: [],
        passingPairs: [],
        failingRenderExcerpt: undefined,
        revertedDescriptions: reverted,
        structural: { score: 1, metrics: {} as never },
      });
      return respond({ system: prompt.system, text: `${prompt.prefix}${prompt.user}` }) as {
        json: { description: string; old_string: string; new_string: string };
      };
    };
    const first = call([]);
    const applied = applyEdit(baselineSkill(), first.json);
    expect(applied.ok).toBe(true);
    const todo = FALSE_CLASSES.find((c) => c.id === 'TODO')!.instruction!;
    expect([...edits.values()][0]).toStrictEqual({ kind: 'good', line: todo });
    const second = call([first.json.description]);
    expect(second.json.new_string).not.toContain(todo.slice(2));
  });

  it('answers the silencing probe with hunks of the real classes a harmful line silences, and others for a neutral line', () => {
    const { respond, calls } = createNightResponder({ seed: 'p', level: DEFAULTS, p: 0, probeHit: 1 });
    const probe = (line: string) => {
      const prompt = buildSilencingProbePrompt({
        skillMd: baselineSkill(),
        added: [line],
        removed: [],
        accepted: [],
      });
      const reply = respond({ system: prompt.system, text: `${prompt.prefix}${prompt.user}` }) as {
        json: { probes: Array<{ title: string; file: string; hunk: string }> };
      };
      return reply.json.probes;
    };
    const majorOnly = HARMFUL.find((h) => h.id === 'MAJOR_ONLY')!;
    const minorReal = REAL_CLASSES.filter((c) => majorOnly.silences(c));
    const hit = probe(majorOnly.text);
    expect(hit).toHaveLength(3);
    // Every probe is of the silenced class (p = 1 here), each (class, file) once while another is left.
    expect(hit.every((x) => minorReal.some((c) => c.title === x.title))).toBe(true);
    expect(new Set(hit.slice(0, 2).map((x) => x.file)).size).toBe(2);
    // Its hunk is one the world's reviewer reads: the class, in that file.
    expect(itemsIn(hit[0]!.hunk).map((i) => `${i.c.title} in ${i.file}`)).toEqual([
      `${hit[0]!.title} in ${hit[0]!.file}`,
    ]);
    const neutral = probe('- Name the file and line of every finding.');
    expect(neutral.every((x) => REAL_CLASSES.some((c) => c.title === x.title))).toBe(true);
    expect(calls.probe).toBe(2);
  });
});
