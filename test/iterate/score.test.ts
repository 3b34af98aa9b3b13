import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OMITTED_REASON, VACUOUS_REASON } from '../../src/core/iterate/absolute.js';
import { parseEvals, parseScenarios, type SkillEvals } from '../../src/core/iterate/evals.js';
import { scoreStructure } from '../../src/core/iterate/structural.js';
import {
  RenderCache,
  createLimiter,
  renderCacheKey,
  scoreSkill,
  type ScoreRequest,
} from '../../src/iterate/score.js';
import { ProviderOutputError } from '../../src/llm/errors.js';
import { ZERO_USAGE } from '../../src/core/usage.js';
import type { GraderInput, SkillModels } from '../../src/ports/models.js';
import { createScriptedModels, type ScriptedModelsOptions } from '../../src/llm/scripted.js';

const SKILL_MD = [
  '---',
  'name: wrap',
  'description: Wraps up a session.',
  '---',
  '# Wrap',
  '',
  '## Steps',
  '',
  '1. Read the notes.',
  '2. Write the summary.',
  '',
].join('\n');

// Format (0.6): 1 model, 3 check (regex ^## Summary$ m). Content (0.4): 2 model, 4 model.
const EVALS_JSON = {
  categories: [
    {
      name: 'Format',
      weight: 0.6,
      evals: [
        { id: 1, statement: 'Is short.', source: 'SKILL.md:9', defect_type: 'format' },
        {
          id: 3,
          statement: 'Has a Summary heading.',
          check: { type: 'regex', value: '^## Summary$', flags: 'm' },
        },
      ],
    },
    {
      name: 'Content',
      weight: 0.4,
      evals: [
        { id: 2, statement: 'Mentions the test.', source: 'SKILL.md:10', defect_type: 'content' },
        { id: 4, statement: 'Names the next step.' },
      ],
    },
  ],
};

function evalsWith(scenarios: Array<Record<string, unknown>>): SkillEvals {
  const evals = parseEvals(JSON.stringify(EVALS_JSON));
  return {
    evals,
    scenarios: parseScenarios(JSON.stringify({ scenarios }), evals),
    requiredSections: undefined,
  };
}

let skillDir: string;
beforeAll(async () => {
  skillDir = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-score-'));
  await writeFile(path.join(skillDir, 'SKILL.md'), SKILL_MD);
});
afterAll(async () => {
  await rm(skillDir, { recursive: true, force: true });
});

const allTrue = (input: GraderInput) => ({
  verdicts: Object.fromEntries(
    input.assertions.map((a) => [String(a.id), { verdict: true, reason: 'fine' }]),
  ),
});

function makeRequest(
  models: SkillModels,
  evals: SkillEvals,
  overrides: Partial<ScoreRequest> = {},
): ScoreRequest {
  return {
    skillName: 'wrap',
    skillDir,
    skillMd: SKILL_MD,
    evals,
    models,
    mode: 'absolute',
    trials: 1,
    concurrency: 4,
    signal: new AbortController().signal,
    cache: new RenderCache(),
    ...overrides,
  };
}

function scripted(options: ScriptedModelsOptions) {
  return createScriptedModels({ render: () => '## Summary\nshort', grade: allTrue, ...options });
}

describe('scoreSkill: routing', () => {
  it('decides non-expected ids vacuously and checks in code; the grader sees only model-graded ids', async () => {
    const models = scripted({});
    const evals = evalsWith([{ id: 's1', context: 'c', expected_assertions: [1, 3] }]);
    const result = await scoreSkill(makeRequest(models, evals));
    expect(result.status).toBe('ok');
    expect(models.calls.render).toHaveLength(1);
    expect(models.calls.grade).toHaveLength(1);
    expect(models.calls.grade[0]?.assertions).toEqual([
      { id: 1, statement: 'Is short.', category: 'Format' },
    ]);
    expect(models.calls.grade[0]?.output).toBe('## Summary\nshort');
    expect(result.absolute?.total).toBe(4);
    expect(result.absolute?.passed).toBe(4);
  });

  it('a check assertion fails in code when the render does not satisfy it', async () => {
    const models = scripted({ render: () => 'no heading' });
    const evals = evalsWith([{ id: 's1', context: 'c', expected_assertions: [3] }]);
    const result = await scoreSkill(makeRequest(models, evals));
    expect(models.calls.grade).toHaveLength(0);
    expect(result.absolute?.failed_assertions).toHaveLength(1);
    expect(result.absolute?.failed_assertions[0]).toMatchObject({ assertion_id: 3, scenario_id: 's1' });
    expect(result.absolute?.failed_assertions[0]?.grader_reason).toMatch(/does not match/);
    // Format: 1 vacuous T, 3 F → 0.5; Content: 2, 4 vacuous → 1.
    expect(result.score).toBeCloseTo(0.6 * 0.5 + 0.4 * 1, 12);
  });

  it('without expected_assertions every non-check assertion goes to the grader', async () => {
    const models = scripted({});
    const evals = evalsWith([{ id: 's1', context: 'c' }]);
    await scoreSkill(makeRequest(models, evals));
    expect(models.calls.grade[0]?.assertions.map((a) => a.id).sort()).toEqual([1, 2, 4]);
    expect(models.calls.grade[0]?.scenario.expected_assertions).toBeUndefined();
  });

  it('only scenarios with a model-graded assertion get a grader call (one per scenario and trial)', async () => {
    const models = scripted({});
    const evals = evalsWith([
      { id: 'check-only', context: 'a', expected_assertions: [3] },
      { id: 'graded', context: 'b', expected_assertions: [2] },
      { id: 'nothing', context: 'c', expected_assertions: [] },
      { id: 'graded-2', context: 'd', expected_assertions: [1, 4] },
    ]);
    const result = await scoreSkill(makeRequest(models, evals));
    expect(models.calls.render).toHaveLength(4);
    expect(models.calls.grade.map((g) => g.scenario.id).sort()).toEqual(['graded', 'graded-2']);
    expect(models.calls.grade.every((g) => g.trial === 1)).toBe(true);
    expect(result.absolute?.total).toBe(16);
    expect([...result.renders.keys()].sort()).toEqual(['check-only', 'graded', 'graded-2', 'nothing']);
  });
});

describe('scoreSkill: grader repairs', () => {
  it('omitted → false "grader omitted"; unknown → dropped; "YES" → true; "nope" → false', async () => {
    const models = scripted({
      grade: () => ({
        verdicts: {
          '1': { verdict: ' YES ', reason: 'brief' },
          '2': { verdict: 'nope', reason: 'no test' },
          '77': { verdict: true, reason: 'unknown id' },
        },
      }),
    });
    const evals = evalsWith([{ id: 's1', context: 'c', expected_assertions: [1, 2, 4] }]);
    const result = await scoreSkill(makeRequest(models, evals));
    const failed = result.absolute?.failed_assertions.map((f) => [f.assertion_id, f.grader_reason]);
    expect(failed).toEqual([
      [2, 'no test'],
      [4, OMITTED_REASON],
    ]);
    expect(result.absolute?.total).toBe(4);
    expect(result.absolute?.passing_pairs.map((p) => p.assertion_id)).toEqual([1, 3]);
  });

  it('garbage once is retried and the score is ok', async () => {
    const models = scripted({ grade: (input, i) => (i === 0 ? { nonsense: true } : allTrue(input)) });
    const evals = evalsWith([{ id: 's1', context: 'c', expected_assertions: [1] }]);
    const result = await scoreSkill(makeRequest(models, evals));
    expect(result.status).toBe('ok');
    expect(models.calls.grade).toHaveLength(2);
    expect(result.score).toBe(1);
  });

  it('counts the usage of an unusable answer the provider still billed', async () => {
    const billed = { ...ZERO_USAGE, calls: 1, inputTokens: 5 };
    const models = scripted({
      grade: (input, i) => {
        if (i === 0) throw new ProviderOutputError('grader', 'not JSON', 'garble', billed);
        return allTrue(input);
      },
    });
    const evals = evalsWith([{ id: 's1', context: 'c', expected_assertions: [1] }]);
    const result = await scoreSkill(makeRequest(models, evals));
    expect(result.status).toBe('ok');
    // render + billed failure + retried grade (the double reports 1 call, 0 tokens per answer).
    expect(result.usage.calls).toBe(3);
    expect(result.usage.inputTokens).toBe(5);
  });

  it('garbage twice makes the whole score unparseable', async () => {
    const models = scripted({ grade: () => 'not json at all' });
    const evals = evalsWith([{ id: 's1', context: 'c', expected_assertions: [1] }]);
    const result = await scoreSkill(makeRequest(models, evals));
    expect(result.status).toBe('unparseable');
    expect(result.score).toBeNull();
    expect(result.absolute).toBeNull();
    expect(models.calls.grade).toHaveLength(2);
    expect(result.detail).toMatch(/scenario s1, trial 1: grader answer unusable/);
  });

  it('any other grader failure is a harness-error carrying the message', async () => {
    const models = scripted({
      grade: () => {
        throw new Error('HTTP 529 overloaded');
      },
    });
    const evals = evalsWith([{ id: 's1', context: 'c', expected_assertions: [1] }]);
    const result = await scoreSkill(makeRequest(models, evals));
    expect(result.status).toBe('harness-error');
    expect(result.detail).toBe('HTTP 529 overloaded');
    expect(models.calls.grade).toHaveLength(1);
  });
});

describe('scoreSkill: AMBIGUOUS and aborts', () => {
  it('a render answering AMBIGUOUS: makes the score ambiguous with the reason, and is not graded', async () => {
    const models = scripted({
      render: (input) => (input.scenario.id === 's2' ? '  AMBIGUOUS: the notes are missing\n' : 'fine'),
    });
    const evals = evalsWith([
      { id: 's1', context: 'a', expected_assertions: [1] },
      { id: 's2', context: 'b', expected_assertions: [1] },
    ]);
    const result = await scoreSkill(makeRequest(models, evals, { concurrency: 1 }));
    expect(result.status).toBe('ambiguous');
    expect(result.detail).toBe('the notes are missing');
    expect(result.score).toBeNull();
    expect(models.calls.grade.some((g) => g.scenario.id === 's2')).toBe(false);
  });

  it('an abort mid-render returns harness-error promptly and starts no further calls', async () => {
    // Renders that never settle: only the abort can end this scoring pass. 5 s is generous for a loaded
    // machine and still far from "hung" (the test's own timeout is 30 s).
    const models = scripted({ render: () => new Promise<string>(() => {}) });
    const evals = evalsWith(
      Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, context: 'c', expected_assertions: [1] })),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('iteration timed out after 600s')), 50);
    const started = Date.now();
    const result = await scoreSkill(
      makeRequest(models, evals, { signal: controller.signal, concurrency: 2 }),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.status).toBe('harness-error');
    expect(result.detail).toBe('scoring aborted: iteration timed out after 600s');
    expect(models.calls.render).toHaveLength(2);
    expect(models.calls.grade).toHaveLength(0);
  });

  it('returns promptly on abort even when a model ignores its signal', async () => {
    // Calls that ignore the signal and never settle: without the abort race, scoring would never return.
    const deaf: SkillModels = {
      label: 'deaf',
      structuralOnly: false,
      renderModelId: 'deaf:render',
      propose: () => new Promise(() => {}),
      render: () => new Promise(() => {}),
      grade: () => new Promise(() => {}),
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    const result = await scoreSkill(
      makeRequest(deaf, evalsWith([{ id: 's1', context: 'c' }]), { signal: controller.signal }),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.status).toBe('harness-error');
  });

  it('passes an abortable signal to every model call', async () => {
    const seen: AbortSignal[] = [];
    const inner = scripted({});
    const spy: SkillModels = {
      ...inner,
      render: (input, signal) => {
        seen.push(signal);
        return inner.render(input, signal);
      },
      grade: (input, signal) => {
        seen.push(signal);
        return inner.grade(input, signal);
      },
    };
    const controller = new AbortController();
    await scoreSkill(
      makeRequest(spy, evalsWith([{ id: 's1', context: 'c', expected_assertions: [1] }]), {
        signal: controller.signal,
      }),
    );
    expect(seen).toHaveLength(2);
    controller.abort();
    expect(seen.every((s) => s.aborted)).toBe(true);
  });
});

describe('scoreSkill: render cache and saturation trials', () => {
  const scenarios = [
    { id: 's1', context: 'a', expected_assertions: [1, 2] },
    { id: 's2', context: 'b', expected_assertions: [3] },
    { id: 's3', context: 'c', expected_assertions: [4] },
  ];

  it('re-scoring the same text renders nothing; trials 3 grades each graded scenario 3 times', async () => {
    const models = scripted({});
    const cache = new RenderCache();
    const evals = evalsWith(scenarios);
    await scoreSkill(makeRequest(models, evals, { cache }));
    expect(models.calls.render).toHaveLength(3);
    expect(models.calls.grade).toHaveLength(2);
    expect(cache.size).toBe(3);

    await scoreSkill(makeRequest(models, evals, { cache }));
    expect(models.calls.render).toHaveLength(3);
    expect(models.calls.grade).toHaveLength(4);

    const saturated = await scoreSkill(makeRequest(models, evals, { cache, trials: 3 }));
    expect(models.calls.render).toHaveLength(3);
    const newGrades = models.calls.grade.slice(4);
    expect(newGrades).toHaveLength(6);
    expect(
      newGrades
        .filter((g) => g.scenario.id === 's1')
        .map((g) => g.trial)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(newGrades.filter((g) => g.scenario.id === 's2')).toHaveLength(0);
    expect(saturated.trials).toBe(3);
    expect(saturated.renders.get('s1')).toBe('## Summary\nshort');
  });

  it('changed text or another render model renders again', async () => {
    const models = scripted({});
    const cache = new RenderCache();
    const evals = evalsWith(scenarios);
    await scoreSkill(makeRequest(models, evals, { cache }));
    await scoreSkill(makeRequest(models, evals, { cache, skillMd: `${SKILL_MD}\nMore.\n` }));
    expect(models.calls.render).toHaveLength(6);
    expect(renderCacheKey('a:x', SKILL_MD, 's1')).not.toBe(renderCacheKey('b:x', SKILL_MD, 's1'));
    expect(renderCacheKey('a:x', SKILL_MD, 's1')).not.toBe(renderCacheKey('a:x', SKILL_MD, 's2'));
  });

  it('the N-trial score is one score from majority-voted verdicts (ties fail)', async () => {
    // s1 asks 1 and 2. Assertion 1: T, F, T → T. Assertion 2: F, T, F → F.
    const plan: Record<number, boolean[]> = { 1: [true, false, true], 2: [false, true, false] };
    const models = scripted({
      grade: (input) => ({
        verdicts: Object.fromEntries(
          input.assertions.map((a) => [
            String(a.id),
            { verdict: plan[a.id]?.[input.trial - 1] ?? false, reason: `trial ${input.trial}` },
          ]),
        ),
      }),
    });
    const evals = evalsWith([{ id: 's1', context: 'a', expected_assertions: [1, 2] }]);
    const three = await scoreSkill(makeRequest(models, evals, { trials: 3 }));
    // Format: 1 T, 3 vacuous → 1; Content: 2 F, 4 vacuous → 0.5. Weighted = 0.6 + 0.2 = 0.8.
    expect(three.score).toBeCloseTo(0.8, 12);
    expect(three.absolute?.failed_assertions.map((f) => [f.assertion_id, f.grader_reason])).toEqual([
      [2, 'trial 1'],
    ]);
    // Two trials: assertion 1 is T, F (tie → F); assertion 2 is F, T (tie → F). Format 0.5, Content 0.5.
    const two = await scoreSkill(makeRequest(models, evals, { trials: 2 }));
    expect(two.score).toBeCloseTo(0.6 * 0.5 + 0.4 * 0.5, 12);
  });
});

describe('scoreSkill: modes and usage', () => {
  const evals = evalsWith([{ id: 's1', context: 'a', expected_assertions: [1, 2] }]);
  const failTwo = (input: GraderInput) => ({
    verdicts: Object.fromEntries(input.assertions.map((a) => [String(a.id), { verdict: a.id !== 2 }])),
  });

  it('composite = 0.4·structural + 0.6·weighted by default, with configurable weights', async () => {
    const models = scripted({ grade: failTwo });
    const structural = scoreStructure(SKILL_MD, {
      skillDir,
      requiredSections: undefined,
      exists: () => true,
    });
    const weighted = 0.6 * 1 + 0.4 * 0.5;
    const composite = await scoreSkill(makeRequest(models, evals, { mode: 'composite' }));
    expect(composite.mode).toBe('composite');
    expect(composite.absolute?.weighted_score).toBeCloseTo(weighted, 12);
    expect(composite.structural.score).toBeCloseTo(structural.score, 12);
    expect(composite.score).toBeCloseTo(0.4 * composite.structural.score + 0.6 * weighted, 12);
    const custom = await scoreSkill(
      makeRequest(models, evals, { mode: 'composite', weights: { structural: 0.5, absolute: 0.5 } }),
    );
    expect(custom.score).toBeCloseTo(0.5 * custom.structural.score + 0.5 * weighted, 12);
    const absolute = await scoreSkill(makeRequest(models, evals, { mode: 'absolute' }));
    expect(absolute.score).toBeCloseTo(weighted, 12);
  });

  it('structural mode and structural-only models make no model calls', async () => {
    const models = scripted({});
    const structuralMode = await scoreSkill(makeRequest(models, evals, { mode: 'structural' }));
    expect(structuralMode).toMatchObject({ status: 'ok', mode: 'structural', absolute: null });
    expect(structuralMode.score).toBe(structuralMode.structural.score);
    const offline = scripted({ structuralOnly: true });
    const fallback = await scoreSkill(makeRequest(offline, evals, { mode: 'composite' }));
    expect(fallback.mode).toBe('structural');
    expect(fallback.score).toBe(fallback.structural.score);
    expect(models.calls.render.length + offline.calls.render.length + offline.calls.grade.length).toBe(0);
  });

  it('sums the usage of every call', async () => {
    const models = scripted({ usagePerCall: { inputTokens: 100, outputTokens: 7, costUsd: 0.01 } });
    const twoScenarios = evalsWith([
      { id: 's1', context: 'a', expected_assertions: [1] },
      { id: 's2', context: 'b', expected_assertions: [3] },
    ]);
    const result = await scoreSkill(makeRequest(models, twoScenarios));
    // 2 renders + 1 grade.
    expect(result.usage.calls).toBe(3);
    expect(result.usage.inputTokens).toBe(300);
    expect(result.usage.outputTokens).toBe(21);
    expect(result.usage.costUsd).toBeCloseTo(0.03, 12);
  });

  it('reports vacuous pairs as passing with the vacuous reason available to callers', async () => {
    const models = scripted({ grade: failTwo });
    const result = await scoreSkill(makeRequest(models, evals));
    expect(result.absolute?.passing_pairs).toContainEqual({ assertion_id: 4, scenario_id: 's1' });
    expect(VACUOUS_REASON).toMatch(/vacuously true/);
  });
});

describe('concurrency', () => {
  it('never has more than `concurrency` model calls in flight across scenarios', async () => {
    let inFlight = 0;
    let peak = 0;
    const inner = createScriptedModels({ render: () => 'out', grade: allTrue, delayMs: 15 });
    const track =
      <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        try {
          return await fn(...args);
        } finally {
          inFlight -= 1;
        }
      };
    const counted: SkillModels = { ...inner, render: track(inner.render), grade: track(inner.grade) };
    const evals = evalsWith(
      Array.from({ length: 9 }, (_, i) => ({ id: `s${i}`, context: 'c', expected_assertions: [1, 2] })),
    );
    const result = await scoreSkill(makeRequest(counted, evals, { concurrency: 3, trials: 2 }));
    expect(result.status).toBe('ok');
    expect(inner.calls.render).toHaveLength(9);
    expect(inner.calls.grade).toHaveLength(18);
    expect(peak).toBe(3);
  });

  it('createLimiter runs tasks in arrival order and propagates rejections', async () => {
    const limit = createLimiter(1);
    const order: number[] = [];
    const tasks = [1, 2, 3].map((n) =>
      limit(async () => {
        order.push(n);
        if (n === 2) throw new Error('two');
        return n;
      }),
    );
    const settled = await Promise.allSettled(tasks);
    expect(order).toEqual([1, 2, 3]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
  it('createLimiter starts waiting grades before waiting renders', async () => {
    const limit = createLimiter(1);
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = limit(() => gate);
    const queued = [
      limit(async () => void order.push('render 2'), 'render'),
      limit(async () => void order.push('grade 1'), 'grade'),
      limit(async () => void order.push('render 3'), 'render'),
      limit(async () => void order.push('grade 2'), 'grade'),
    ];
    release();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['grade 1', 'grade 2', 'render 2', 'render 3']);
  });
});

describe('pipelining', () => {
  /** Records when each call started and ended, relative to the scoring's start. */
  function timeline(delays: Record<string, number>) {
    const events: Array<{ call: string; start: number; end: number }> = [];
    const t0 = performance.now();
    const timed = async <T>(call: string, work: () => T): Promise<T> => {
      const event = { call, start: performance.now() - t0, end: NaN };
      events.push(event);
      await new Promise((resolve) => setTimeout(resolve, delays[call] ?? 5));
      event.end = performance.now() - t0;
      return work();
    };
    const models = createScriptedModels({
      render: (input) => timed(`render ${input.scenario.id}`, () => '## Summary\nshort'),
      grade: (input) => timed(`grade ${input.scenario.id}`, () => allTrue(input)),
    });
    return { models, events };
  }
  const scenarios = (n: number) =>
    evalsWith(
      Array.from({ length: n }, (_, i) => ({ id: `s${i + 1}`, context: 'c', expected_assertions: [1] })),
    );

  it("starts a scenario's grade when its render ends, before the other renders end", async () => {
    const { models, events } = timeline({ 'render s1': 5, 'render s2': 150, 'render s3': 150 });
    const result = await scoreSkill(makeRequest(models, scenarios(3), { concurrency: 32 }));
    expect(result.status).toBe('ok');
    const at = (call: string) => events.find((e) => e.call === call)!;
    const lastRenderEnd = Math.max(...events.filter((e) => e.call.startsWith('render')).map((e) => e.end));
    expect(at('grade s1').start).toBeGreaterThanOrEqual(at('render s1').end);
    expect(at('grade s1').start).toBeLessThan(lastRenderEnd);
    // and the three renders went out together
    expect(Math.max(...['s1', 's2', 's3'].map((s) => at(`render ${s}`).start))).toBeLessThan(
      at('render s1').end,
    );
  });

  it('grades a rendered scenario before rendering another when the limit is reached', async () => {
    const { models, events } = timeline({ 'render s1': 5, 'render s2': 80 });
    const result = await scoreSkill(makeRequest(models, scenarios(4), { concurrency: 2 }));
    expect(result.status).toBe('ok');
    const at = (call: string) => events.find((e) => e.call === call)!;
    // s1's render frees a slot while s3 and s4 wait to be rendered: s1's grade takes it.
    expect(at('grade s1').start).toBeLessThan(at('render s3').start);
  });

  it('32 calls in flight on one pass raise no "possible memory leak" warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const { models, events } = timeline({});
      const result = await scoreSkill(makeRequest(models, scenarios(16), { concurrency: 32, trials: 2 }));
      expect(result.status).toBe('ok');
      expect(events.length).toBe(16 + 32);
      // Warnings are emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('runs the N=3 re-grades of every scenario side by side', async () => {
    const { models, events } = timeline({});
    const result = await scoreSkill(makeRequest(models, scenarios(4), { concurrency: 32, trials: 3 }));
    expect(result.status).toBe('ok');
    const grades = events.filter((e) => e.call.startsWith('grade'));
    expect(grades).toHaveLength(12);
    // every grade started before the first one ended: all twelve were in flight together
    expect(Math.max(...grades.map((g) => g.start))).toBeLessThan(Math.min(...grades.map((g) => g.end)));
  });
});
