/**
 * The skill `npm run bench:iterate` climbs, and the scripted model answers for it, shared by the bench
 * (which serves the answers over HTTP) and its child process (which runs the engine on the skill).
 *
 * 10 scenarios, 20 assertions: 1–5 are decided by code (`check`), 6–20 go to the grader; the last two
 * scenarios expect only checked assertions, so they need a render but no grader call. Sizes are those of a
 * real skill: a SKILL.md of about 2,200 characters and scenario inputs of about 2,500, so prompts are long
 * enough for a provider's prompt cache (1,024 tokens at least) to matter.
 *
 * Profiles:
 *   targeted    the editor alternates a fix of the top failure (a keep) with a neutral note (a revert);
 *               assertion 20 is never fixed, so the N=3 saturation handler never fires;
 *   saturating  the first edit fixes everything, so every later iteration passes everything once and is
 *               re-graded three times (the N=3 saturation handler), then reverted (same score, more lines).
 */
export const SKILL = 'bench-skill';
export const SCENARIOS = 10;
export const ASSERTIONS = 20;
/** Assertions 1..5 are decided by code (`check`); 6..20 go to the grader. */
export const CHECKED = 5;
/** The last two scenarios expect only checked assertions, so they need a render but no grader call. */
const CHECK_ONLY_SCENARIOS = 2;
/** Never fixed by the targeted editor: keeps one pair failing so the N=3 saturation handler never fires. */
const NEVER_FIXED = ASSERTIONS;
export const PROFILES = ['targeted', 'saturating'];

function modelGradedIdsFor(k) {
  const span = ASSERTIONS - CHECKED;
  return [0, 5, 10].map((offset) => CHECKED + 1 + ((k + offset) % span));
}

/** About 2,500 characters of input per scenario: the document the request is about. */
function scenarioInput(k) {
  const lines = [];
  for (let i = 1; lines.join('\n').length < 2400; i++) {
    lines.push(
      `${i}. Item ${k}.${i}: the customer reports that step ${i} of the import fails when the file has ` +
        `more than ${k * 100 + i} rows; the log shows a timeout after ${i * 3} seconds.`,
    );
  }
  return lines.join('\n');
}

export function generateEvals() {
  const checks = [
    { type: 'contains', value: '## Result' },
    { type: 'icontains', value: 'SCENARIO' },
    { type: 'not-contains', value: 'TODO' },
    { type: 'regex', value: '^## Result$', flags: 'm' },
    { type: 'max-lines', value: 400 },
  ];
  const assertion = (id) => ({
    id,
    statement:
      id <= CHECKED
        ? `Checked property ${id} holds.`
        : `The output applies rule ${id} of the skill to every item of the input it reports on.`,
    source: `SKILL.md, rule ${id}`,
    defect_type: id <= CHECKED ? 'format' : 'content',
    ...(id <= CHECKED ? { check: checks[id - 1] } : {}),
  });
  const ids = Array.from({ length: ASSERTIONS }, (_, i) => i + 1);
  const evals = {
    skill: SKILL,
    version: '2.0',
    categories: [
      { name: 'Output format', weight: 0.4, evals: ids.filter((id) => id <= 8).map(assertion) },
      { name: 'Content', weight: 0.6, evals: ids.filter((id) => id > 8).map(assertion) },
    ],
  };
  const scenarios = Array.from({ length: SCENARIOS }, (_, i) => {
    const k = i + 1;
    const checkOnly = k > SCENARIOS - CHECK_ONLY_SCENARIOS;
    const expected = checkOnly ? [1, 2, 3] : [1, 2, 4, ...modelGradedIdsFor(k)];
    return {
      id: `scenario_${k}`,
      name: `Scenario ${k}`,
      description: `Generated scenario ${k}`,
      context: `Request ${k}: apply the skill to this support ticket and report the result.\n\n${scenarioInput(k)}`,
      expected_assertions: [...new Set(expected)].sort((a, b) => a - b),
    };
  });
  if (!scenarios.some((s) => s.expected_assertions.includes(NEVER_FIXED))) {
    throw new Error('bench setup: the never-fixed assertion must be expected somewhere');
  }
  return { evals, scenarios: { skill: SKILL, version: '1.0', scenarios } };
}

const RULE_PROSE = [
  'Read the whole ticket before writing anything, and note which product area it concerns.',
  'Quote the exact error message when the ticket has one, in a fenced block labelled text.',
  'Say which step failed and what the customer did just before it.',
  'Group items that share a cause, and name the cause in one sentence.',
  'Prefer the customer’s own words over a paraphrase when they describe the symptom.',
  'Give each finding a severity: blocker, major or minor, with one line of reasoning.',
  'Never promise a fix date; say what the next step is and who takes it.',
];

export const SKILL_MD = `---
name: ${SKILL}
description: Triage a support ticket about a failing import and report the result in a fixed format.
---

# Bench skill

This skill turns a raw support ticket into a short triage report that an engineer can act on without
reading the ticket again. It is generated for the skill-iterate benchmark, but it is shaped like a real
skill: steps, rules with their reasons, constraints and limitations.

## Steps

1. Read the request and the ticket it quotes.
2. Apply every rule below, in order.
3. Write the result under a Result heading, one finding per line.
4. End with the next step and who owns it.

## Rules

${RULE_PROSE.map((rule) => `- ${rule}`).join('\n')}

Rules exist so that two engineers reading the same report reach the same conclusion; a rule that does not
change what the report says is a candidate for removal.

## Constraints

- Never leave TODO markers.
- Keep the report under forty lines.
- Use the ticket's item numbers when you refer to an item.

## Limitations

- Generated for benchmarking only.
- The skill does not reproduce the failure; it reports what the ticket says.
`;

/** Expected model calls per iteration: the editor once, a render per scenario, a grader call per scenario needing one. */
export function expectedCalls() {
  const { evals, scenarios } = generateEvals();
  const checked = new Set(evals.categories.flatMap((c) => c.evals.filter((a) => a.check).map((a) => a.id)));
  const graded = scenarios.scenarios.filter((s) =>
    s.expected_assertions.some((id) => !checked.has(id)),
  ).length;
  const iteration = 1 + scenarios.scenarios.length + graded;
  return {
    scenarios: scenarios.scenarios.length,
    graded,
    iteration,
    /** With the saturation handler: the same renders graded three more times. */
    saturated: iteration + 3 * graded,
    baseline: iteration - 1,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The scripted answers, decided from what each request carries

const ruleToken = (id) => `[rule-${id}]`;

/** Which role a request is: the editor and the grader ask for their own schemas; a render asks for text. */
export function roleOf(call) {
  const properties = call.schema?.properties ?? {};
  if ('old_string' in properties) return 'editor';
  if ('verdicts' in properties) return 'grader';
  return 'render';
}

/** The scenario a render or grader call is about (`Request <k>:` in a render, `scenario_<k>` in a grade). */
export function scenarioOf(call, role = roleOf(call)) {
  if (role === 'render') {
    const k = /Request (\d+):/.exec(`${call.text}\n${call.system}`)?.[1];
    return k === undefined ? undefined : `scenario_${k}`;
  }
  if (role === 'grader') return /\bscenario_\d+\b/.exec(`${call.system}\n${call.text}`)?.[0];
  return undefined;
}

const UPLIFT_MARK = 'Rendered without the skill.';

/**
 * A call of the uplift's draw: a render without the skill (the engine's NO_SKILL_TEXT in place of the
 * SKILL.md) or the grade of one. It is a report, not part of an iteration's chain.
 */
export function isUpliftCall(call) {
  return /No skill instructions are given|Rendered without the skill\./.test(`${call.system}\n${call.text}`);
}

const BASELINE_MARK = 'Rendered from the unmodified SKILL.md.';

/**
 * A render of the SKILL.md as the night found it (no edit inserted under its Rules heading) or the grade
 * of one: the baseline's draws, which since issue 28 item 6 partly run beside the first editor call. (An
 * editor call on that text matches too: the caller asks only of renders and grades.)
 */
export function isBaselineTextCall(call) {
  const text = `${call.system}\n${call.text}`;
  return text.includes(BASELINE_MARK) || text.includes(`## Rules\n\n- ${RULE_PROSE[0]}`);
}

/** A realistic render: the Result heading, the scenario, the rules the SKILL.md carries, a report body. */
function renderFor(call) {
  const scenario = scenarioOf(call, 'render') ?? 'scenario_?';
  const rules = [...new Set(`${call.system}\n${call.text}`.match(/\[rule-\d+\]/g) ?? [])];
  const findings = Array.from(
    { length: 8 },
    (_, i) =>
      `- Item ${i + 1}: import step ${i + 1} times out on large files (major): the log shows the ` +
      `timeout and the customer retried once.`,
  );
  return [
    '## Result',
    // The uplift's render (no skill in the system prompt) says so, so its grade can be told apart too.
    ...(isUpliftCall(call) ? [UPLIFT_MARK] : []),
    // So does a render of the unmodified SKILL.md (a baseline draw), for the same reason.
    ...(isBaselineTextCall(call) ? [BASELINE_MARK] : []),
    `Scenario ${scenario}`,
    rules.join(' '),
    ...findings,
    'Next step: the import team reproduces with a file of the reported size.',
  ].join('\n');
}

/**
 * A responder for the latency model server. One instance per run: it counts the editor's calls to alternate
 * its edits.
 */
export function createResponder(profile) {
  let editorCalls = 0;
  return (call) => {
    const role = roleOf(call);
    if (role === 'render') return renderFor(call);
    if (role === 'grader') {
      const ids = Object.keys(call.schema.properties.verdicts.properties ?? {});
      const verdicts = {};
      for (const id of ids) {
        const verdict = call.text.includes(ruleToken(id)) || call.system.includes(ruleToken(id));
        verdicts[id] = { verdict, reason: verdict ? 'rule applied' : 'rule missing from output' };
      }
      return { json: { verdicts } };
    }
    const index = editorCalls++;
    const anchor = '## Rules\n';
    if (profile === 'saturating') {
      const all = Array.from({ length: ASSERTIONS - CHECKED }, (_, i) => ruleToken(CHECKED + 1 + i));
      const line = index === 0 ? `- Apply ${all.join(' ')} to every answer.` : `- Note ${index}: be concise.`;
      return {
        json: {
          description: index === 0 ? 'Add every rule' : `Add note ${index}`,
          old_string: anchor,
          new_string: `${anchor}\n${line}\n`,
        },
      };
    }
    const target = Number(/assertion_id:\s*(\d+)/.exec(`${call.system}\n${call.text}`)?.[1]);
    // Alternate a targeted fix (a keep) with a neutral note (equal score, more lines: a revert).
    const fix = index % 2 === 0 && Number.isInteger(target) && target !== NEVER_FIXED;
    const line = fix ? `- Apply ${ruleToken(target)} to every answer.` : `- Note ${index}: be concise.`;
    return {
      json: {
        description: fix
          ? `Add rule ${target} for assertion ${target}; keeps passing pairs intact`
          : `Add note ${index}; no passing pair touched`,
        old_string: anchor,
        new_string: `${anchor}\n${line}\n`,
      },
    };
  };
}
