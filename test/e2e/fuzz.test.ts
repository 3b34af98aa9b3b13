/**
 * Property-based tests (fast-check) over the three kinds of input skillclimb takes from outside (issue 13,
 * acceptance): eval files, queue files and model answers. Whatever comes in, nothing throws an unexpected
 * exception, and every error names its file (and the field) or the model role (and the field).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import nock from 'nock';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalPlanPorts } from '../../src/adapters/local/ports.js';
import { aggregate, decidePairs, planScenario, repairGraderAnswer } from '../../src/core/iterate/absolute.js';
import { EvalsFileError, parseSkillEvals } from '../../src/core/iterate/evals.js';
import { PreflightHalt } from '../../src/core/halt.js';
import { applyEdit } from '../../src/core/iterate/hill-climb.js';
import { ModelOutputError } from '../../src/core/model-answers.js';
import { runPreflight } from '../../src/iterate/preflight.js';
import { QueueFileError, parseQueueFile } from '../../src/iterate/queue-file.js';
import { createModels } from '../../src/llm/factory.js';
import type { EditorInput, GraderInput } from '../../src/ports/models.js';
import { cleanupTempDirs, makeProject, SKILL_MD, tempDir } from '../helpers/engine-fixtures.js';
import { chatCompletion } from '../helpers/model-replies.js';
import { signal, structural } from '../helpers/provider-models.js';
import { iterateOptions, recordingLogger } from '../helpers/skill-project.js';
import { messageOf } from '../../src/core/errors.js';

afterAll(cleanupTempDirs);

const FILES = ['evals.json', 'test_scenarios.json', 'required_sections.json'];

// ---------------------------------------------------------------------------------------------------------
// Eval files

/** Values that look like the real thing often, and like anything at all sometimes. */
const anything = fc.oneof(
  { weight: 1, arbitrary: fc.anything() },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

const check = fc.oneof(
  fc.record({ type: fc.constantFrom('contains', 'icontains', 'not-contains'), value: fc.string() }),
  fc.record({
    type: fc.constantFrom('regex', 'not-regex'),
    value: fc.oneof(fc.string(), fc.constantFrom('^([\\s\\S]+)+!$', '(a|a)*b', '[', '(?<x>a)\\k<x>', '^#')),
    flags: fc.option(fc.oneof(fc.constantFrom('i', 'm', 's', 'gimsuy'), fc.string()), { nil: undefined }),
  }),
  fc.record({ type: fc.constantFrom('max-lines', 'max-words'), value: fc.integer({ min: -5, max: 500 }) }),
  fc.record({ type: fc.constant('is-json') }),
);
const assertion = fc.record(
  { statement: fc.string({ minLength: 1 }), source: fc.string(), defect_type: fc.string(), check },
  { requiredKeys: ['statement'] },
);
const weight = fc.oneof(
  fc.constant(0),
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.integer({ min: 0, max: 2 }),
);
const category = fc.record(
  { name: fc.string({ minLength: 1 }), weight, evals: fc.array(assertion, { maxLength: 3 }) },
  { requiredKeys: ['name', 'evals'] },
);
/** A well-formed evals.json (ids numbered in order), and scenarios that refer to its ids. */
const wellFormed = fc
  .record({
    categories: fc.array(category, { minLength: 1, maxLength: 3 }),
    scenarioCount: fc.integer({ min: 1, max: 3 }),
  })
  .chain(({ categories, scenarioCount }) => {
    let id = 0;
    const evals = {
      skill: 'demo',
      categories: categories.map((c) => ({ ...c, evals: c.evals.map((a) => ({ id: ++id, ...a })) })),
    };
    const ids = Array.from({ length: id }, (_, i) => i + 1);
    const scenario = (i: number) =>
      fc.record(
        {
          id: fc.constant(`s${i}`),
          context: fc.string(),
          expected_assertions: fc.subarray(ids),
          files: fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
        },
        { requiredKeys: ['id', 'context'] },
      );
    return fc.record({
      evals: fc.constant(evals),
      scenarios: fc
        .tuple(...Array.from({ length: scenarioCount }, (_, i) => scenario(i)))
        .map((list) => ({ scenarios: list })),
      required: fc.record({ required: fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }) }),
    });
  });

/** Sets (or deletes) the value at a pseudo-random path of `value`: one hand edit gone wrong. */
function mutate(value: unknown, seed: number, replacement: unknown, remove: boolean): unknown {
  const copy = structuredClone(value) as unknown;
  let node = copy as Record<string, unknown> | unknown[];
  let n = seed;
  for (;;) {
    const keys = Object.keys(node);
    if (keys.length === 0) return copy;
    const key = keys[n % keys.length]!;
    n = Math.floor(n / keys.length);
    const child = (node as Record<string, unknown>)[key];
    if (n % 3 !== 0 && child !== null && typeof child === 'object') {
      node = child as Record<string, unknown>;
      continue;
    }
    if (remove && !Array.isArray(node)) delete node[key];
    else (node as Record<string, unknown>)[key] = replacement;
    return copy;
  }
}

const edit = fc.option(fc.record({ seed: fc.nat(), value: anything, remove: fc.boolean() }), { freq: 2 });

/** A file's text: usually JSON of the shape (at times hand-edited wrong), sometimes mangled or absent. */
const fileText = (shape: unknown) =>
  fc
    .tuple(edit, fc.integer({ min: 0, max: 19 }), fc.string(), fc.jsonValue())
    .map(([change, roll, junk, json]) => {
      const value = change ? mutate(shape, change.seed, change.value, change.remove) : shape;
      const text = JSON.stringify(value);
      if (roll === 0) return text.slice(0, -1);
      if (roll === 1) return junk;
      if (roll === 2) return undefined;
      if (roll === 3) return `\uFEFF${JSON.stringify(json)}`;
      return text;
    });

const evalFiles = wellFormed.chain((files) =>
  fc.tuple(fileText(files.evals), fileText(files.scenarios), fileText(files.required)),
);

describe('fuzz: eval files', () => {
  it('parse or fail with an EvalsFileError naming the file (and the field); a parsed file scores in [0, 1]', () => {
    const seen = { parsed: 0, refused: 0 };
    fc.assert(
      fc.property(evalFiles, fc.string(), ([evals, scenarios, requiredSections], render) => {
        let parsed;
        try {
          parsed = parseSkillEvals({ evals, scenarios, requiredSections });
        } catch (err) {
          expect(err).toBeInstanceOf(EvalsFileError);
          const error = err as EvalsFileError;
          expect(FILES).toContain(error.file);
          expect(error.message.startsWith(`${error.file}: `)).toBe(true);
          expect(error.detail.length).toBeGreaterThan(0);
          seen.refused++;
          return;
        }
        seen.parsed++;
        // What was accepted scores: every pair decided, the weighted score a number in [0, 1].
        const plans = parsed.scenarios.map((s) => planScenario(parsed.evals, s));
        const decided = decidePairs(plans, new Map(parsed.scenarios.map((s) => [s.id, render])), []);
        const result = aggregate(parsed.evals, plans, decided);
        expect(result.weighted_score).toBeGreaterThanOrEqual(0);
        expect(result.weighted_score).toBeLessThanOrEqual(1);
        if (result.total > 0 && result.passed === 0) expect(result.weighted_score).toBe(0);
      }),
      { numRuns: 400 },
    );
    // Both ways are exercised: the generator is not all garbage, nor all valid.
    expect(seen.parsed).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Queue files

const queueText = fc.oneof(
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'demo',
          ' demo ',
          '# comment',
          'demo # trailing',
          '',
          '\t',
          'missing-skill',
          '..',
          'a b',
        ),
        fc.string(),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.constant('x'.repeat(2000)),
      ),
      { maxLength: 12 },
    )
    .map((lines) => lines.join(fc.sample(fc.constantFrom('\n', '\r\n', '\r'), 1)[0])),
  fc.string({ maxLength: 400 }),
);

describe('fuzz: queue files', () => {
  it('parse to names with their line numbers, or fail naming the line', () => {
    fc.assert(
      fc.property(queueText, (text) => {
        try {
          const entries = parseQueueFile(text);
          const lines = text.split(/\r\n|\n|\r/).length;
          for (const entry of entries) {
            expect(entry.line).toBeGreaterThanOrEqual(1);
            expect(entry.line).toBeLessThanOrEqual(lines);
            expect(entry.name).not.toMatch(/^\s|\s$|#/);
          }
        } catch (err) {
          expect(err).toBeInstanceOf(QueueFileError);
          expect(messageOf(err)).toMatch(/^line \d+: /);
          expect(messageOf(err).length).toBeLessThan(400);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('through the pre-flight: a queue or a halt that names the queue file (and the line)', async () => {
    const project = await makeProject();
    const dir = await tempDir('skillclimb-queues-');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(queueText, async (text) => {
        const file = path.join(dir, `queue-${n++}.txt`);
        await writeFile(file, text);
        const options = iterateOptions(project, { queueFile: file });
        const log = recordingLogger();
        try {
          const result = await runPreflight(options, createLocalPlanPorts(project, { log }), false);
          expect(result.explicit?.every((skill) => skill.name === 'demo')).toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(PreflightHalt);
          expect(messageOf(err).startsWith(`queue file ${file} `)).toBe(true);
          expect(messageOf(err).length).toBeLessThan(1200);
        }
      }),
      { numRuns: 60 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Model answers

const BASE = 'https://fuzz-model.internal:8000';
const models = createModels(
  { model: 'openai-compatible:fuzz' },
  { OPENAI_BASE_URL: `${BASE}/v1` },
  {
    structuredOutput: 'text',
    retry: { maxAttempts: 1 },
  },
);

const answerText = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record({ description: anything, old_string: anything, new_string: anything }, { requiredKeys: [] })
    .map((v) => `Here it is:\n\`\`\`json\n${JSON.stringify(v)}\n\`\`\``),
  fc
    .record({
      description: fc.string(),
      old_string: fc.constantFrom('## Steps', '1. Read the notes.', 'nope', ''),
      new_string: fc.string(),
    })
    .map((v) => `<think>{"description": 1}</think>${JSON.stringify(v)}`),
  fc
    .dictionary(
      fc.constantFrom('1', '2', ' 1', 'x', '3'),
      fc.record({ verdict: anything, reason: fc.option(anything, { nil: undefined }) }),
    )
    .map((verdicts) => JSON.stringify({ verdicts })),
  fc.string().map((s) => `{"verdicts": {"1": {"verdict": ${JSON.stringify(s)}}}`),
);

const editorInput: EditorInput = {
  skillName: 'demo',
  skillMd: SKILL_MD,
  mode: 'targeted',
  radical: false,
  topFailure: undefined,
  otherFailures: [],
  passingPairs: [],
  failingRenderExcerpt: undefined,
  revertedDescriptions: [],
  structural,
};
const graderInput: GraderInput = {
  skillName: 'demo',
  scenario: { id: 's1', context: 'Wrap up.' },
  output: 'a render',
  assertions: [
    { id: 1, statement: 'Has a heading.', category: 'Format' },
    { id: 2, statement: 'Names the test.', category: 'Content' },
  ],
  trial: 1,
};

describe('fuzz: model answers', () => {
  it('an edit proposal is usable or a ModelOutputError of the editor naming what is wrong; applying it never throws', async () => {
    await fc.assert(
      fc.asyncProperty(answerText, async (answer) => {
        nock(BASE).post('/v1/chat/completions').reply(200, chatCompletion(answer));
        try {
          const reply = await models.propose(editorInput, signal());
          const applied = applyEdit(SKILL_MD, reply.value);
          expect(typeof applied.ok).toBe('boolean');
        } catch (err) {
          expect(err).toBeInstanceOf(ModelOutputError);
          expect(messageOf(err)).toMatch(
            /^editor answer unusable: (no JSON object in the answer|(description|old_string|new_string|\(root\))?: ?)/,
          );
        } finally {
          nock.cleanAll();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a grader answer is repaired into a verdict per asked id, or a ModelOutputError of the grader', async () => {
    await fc.assert(
      fc.asyncProperty(answerText, async (answer) => {
        nock(BASE).post('/v1/chat/completions').reply(200, chatCompletion(answer));
        try {
          const reply = await models.grade(graderInput, signal());
          const repaired = repairGraderAnswer(reply.value.verdicts, [1, 2]);
          expect([...repaired.keys()]).toEqual([1, 2]);
          for (const verdict of repaired.values()) expect(typeof verdict.pass).toBe('boolean');
        } catch (err) {
          expect(err).toBeInstanceOf(ModelOutputError);
          expect(messageOf(err)).toMatch(/^grader answer unusable: (no JSON object in the answer|verdicts)/);
        } finally {
          nock.cleanAll();
        }
      }),
      { numRuns: 150 },
    );
  });
});
