/**
 * The simulated world of `npm run bench:quality`: skills with a hidden ground truth, and the answers a
 * loopback model server gives the editor, render and grader roles in it. Pure: no I/O, every random draw
 * comes from a hash of the seed and what the request carries (plus a per-world counter), so a run is
 * reproducible whatever order concurrent requests arrive in.
 *
 * The truth, per skill: 6 assertions (ids 1–3 "Format", weight 0.4; 4–6 "Content", weight 0.6) graded in
 * 6 scenarios, every scenario expecting every assertion. Each assertion has two GOOD rule lines, each
 * making it pass in its own half of the scenarios, and one HARMFUL line that makes it fail in two
 * scenarios whatever else the SKILL.md says; NEUTRAL lines change nothing. A pair (assertion, scenario)
 * truly passes when a good line covering it is present and no harmful line breaking it is. Rule lines are
 * list items in `## Rules` (each carries its id, e.g. `R417`), so no edit changes the structural score:
 * the true composite gain is 0.6 × the true weighted gain.
 *
 * The roles, told apart by their system prompt: the EDITOR ("You are a strict editor") answers with one
 * `{description, old_string, new_string}` edit — a real improvement with probability `goodEdit` (0.25)
 * when one exists, harmful with probability `harmfulEdit` (0.35) when one exists, otherwise neutral;
 * the RENDER (system prompt = a SKILL.md) answers with the ids of the rule lines the SKILL.md carries and
 * a trial nonce (so two renders of the same text are different outputs); the GRADER ("You are a strict,
 * impartial grader") grades each assertion by the truth, then flips the verdict with probability p. A
 * share `sticky` (0.5) of the verdicts draw their flip from a hash of (render, assertion) only, so
 * re-grading the same render repeats that mistake: correlated mistakes, as real graders make them.
 */

export const ASSERTIONS = 6;
export const SCENARIOS = 6;
export const CATEGORIES = [
  { name: 'Format', weight: 0.4, ids: [1, 2, 3] },
  { name: 'Content', weight: 0.6, ids: [4, 5, 6] },
];
/** The composite weight of the model-graded axis (the engine's default composite: 0.4 structural + 0.6). */
export const ABSOLUTE_WEIGHT = 0.6;
export const DEFAULTS = { goodEdit: 0.25, harmfulEdit: 0.35, sticky: 0.5 };
const HARMFUL_BREAKS = 2;
const NEUTRAL_LINES = 12;

// ---------------------------------------------------------------------------------------------------------
// Hashing: uniform draws from strings

/** cyrb53: a fast 53-bit string hash. */
function hash53(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A uniform draw in [0, 1) decided by its parts. */
export function uniform(...parts) {
  return hash53(parts.join('\u0001')) / 2 ** 53;
}

/** A seeded PRNG (mulberry32) for building worlds. */
export function prng(seed) {
  let a = hash53(String(seed)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(list, random) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Worlds

const PHRASES = [
  'open the report with a one-line verdict before any detail',
  'name the ticket number in the first sentence',
  'list each finding on its own line with its severity',
  'quote the exact error message when the request has one',
  'say which step failed and what came just before it',
  'group findings that share a cause and name the cause once',
  'end with the next step and who takes it',
  'keep each finding under two sentences',
  'use the request’s own words for the symptom',
  'mark anything not checked as unverified',
  'give the version the problem was seen on',
  'state the impact in numbers when the request gives them',
  'separate what was observed from what is guessed',
  'name the owner team of every finding',
  'put workarounds under their own heading',
  'link each finding to the part of the request it comes from',
  'write dates as ISO 8601',
  'prefer short words over long ones',
  'say when the request is a duplicate of an earlier one',
  'keep the report free of greetings and sign-offs',
  'use a table when comparing more than two builds',
  'close with the open questions for the requester',
  'spell out every abbreviation once',
  'write the verdict in the present tense',
  'keep code identifiers in backticks',
  'mention the environment: production, staging or local',
  'list the logs that were read',
  'put the most severe finding first',
  'avoid blaming a person; name the process',
  'state whether the problem is reproducible',
  'give the number of affected users when known',
  'say what was ruled out and why',
  'keep the summary to three sentences at most',
  'note the first time the problem was reported',
  'name the feature flag involved, if any',
  'write one finding per bullet, never two',
];

/**
 * One skill's world: its assertions, scenarios, rule lines with their hidden effects, and its baseline
 * SKILL.md. Deterministic in (seed, index).
 */
export function makeSkillWorld(seed, index) {
  const random = prng(`world:${seed}:${index}`);
  const name = `q-skill-${String(index + 1).padStart(2, '0')}`;
  const scenarioIds = Array.from({ length: SCENARIOS }, (_, i) => `scenario_${i + 1}`);
  const ids = shuffle(
    Array.from({ length: 900 }, (_, i) => i + 100),
    random,
  );
  const phrases = shuffle(PHRASES, random);
  let next = 0;
  const lines = [];
  const line = (kind, fields) => {
    const id = `R${ids[next]}`;
    const text = `- Rule ${id}: ${phrases[next % phrases.length]}.`;
    next++;
    const entry = { id, text, kind, ...fields };
    lines.push(entry);
    return entry;
  };
  for (let a = 1; a <= ASSERTIONS; a++) {
    const halves = shuffle(scenarioIds, random);
    line('good', { assertion: a, scenarios: halves.slice(0, SCENARIOS / 2).sort() });
    line('good', { assertion: a, scenarios: halves.slice(SCENARIOS / 2).sort() });
    line('harmful', {
      assertion: a,
      scenarios: shuffle(scenarioIds, random).slice(0, HARMFUL_BREAKS).sort(),
    });
  }
  for (let n = 0; n < NEUTRAL_LINES; n++) line('neutral', {});
  // The baseline: each good line with probability 1/2 (at least 3 present and 4 missing), 2 neutral lines,
  // and with probability 1/2 one harmful line (removing it is a real improvement).
  const good = lines.filter((l) => l.kind === 'good');
  let present;
  do present = good.filter(() => random() < 0.5);
  while (present.length < 3 || good.length - present.length < 4);
  const neutral = lines.filter((l) => l.kind === 'neutral');
  const harmful = lines.filter((l) => l.kind === 'harmful');
  const baseline = [...present, neutral[0], neutral[1]];
  if (random() < 0.5) baseline.push(harmful[Math.floor(random() * harmful.length)]);
  const skill = {
    name,
    index,
    scenarioIds,
    lines,
    byId: new Map(lines.map((l) => [l.id, l])),
  };
  skill.baselineText = skillText(name, shuffle(baseline, random));
  return skill;
}

export function makeWorld(seed, skills) {
  const list = Array.from({ length: skills }, (_, i) => makeSkillWorld(seed, i));
  return { seed, skills: list, byName: new Map(list.map((s) => [s.name, s])) };
}

/** A SKILL.md whose `## Rules` list holds `rules`, in that order. */
export function skillText(name, rules) {
  return [
    '---',
    `name: ${name}`,
    'description: Write a short status report for a support request (generated for the quality benchmark).',
    '---',
    '',
    `# ${name}`,
    '',
    '## Steps',
    '',
    '1. Read the request.',
    '2. Apply every rule below.',
    '3. Write the report.',
    '',
    '## Rules',
    ...rules.map((r) => r.text),
    '',
    '## Constraints',
    '',
    '- Keep the report short.',
    '',
    '## Limitations',
    '',
    '- Generated for the quality benchmark: a simulated world, not a real skill.',
    '',
  ].join('\n');
}

/** The eval files of a skill, in the original's format. */
export function evalFiles(skill) {
  const statement = (id) =>
    id <= 3
      ? `The report meets format requirement ${id} of the skill.`
      : `The report meets content requirement ${id} of the skill.`;
  const evals = {
    skill: skill.name,
    version: '2.0',
    categories: CATEGORIES.map((c) => ({
      name: c.name,
      weight: c.weight,
      evals: c.ids.map((id) => ({
        id,
        statement: statement(id),
        source: `SKILL.md, requirement ${id}`,
        defect_type: c.name === 'Format' ? 'format' : 'content',
      })),
    })),
  };
  const scenarios = {
    skill: skill.name,
    version: '1.0',
    scenarios: skill.scenarioIds.map((id, i) => ({
      id,
      name: `Request ${i + 1}`,
      description: `Generated request ${i + 1}`,
      context: `Request ${i + 1} for ${skill.name}: write the status report for support ticket ${1000 + i}.`,
      expected_assertions: Array.from({ length: ASSERTIONS }, (_, k) => k + 1),
    })),
  };
  return { evals, scenarios };
}

// ---------------------------------------------------------------------------------------------------------
// The truth

/** The rule lines a SKILL.md carries (by id), in file order. */
export function presentRules(skill, text) {
  const out = [];
  for (const raw of String(text ?? '').split('\n')) {
    const l = skill.byId.get(/^- Rule (R\d+):/.exec(raw.trim())?.[1]);
    if (l && l.text === raw.trim() && !out.includes(l.id)) out.push(l.id);
  }
  return out;
}

/** Whether (assertion, scenario) truly passes with these rule lines. */
export function truePass(skill, rules, assertion, scenario) {
  let covered = false;
  for (const id of rules) {
    const l = skill.byId.get(id);
    if (!l || l.assertion !== assertion || !l.scenarios.includes(scenario)) continue;
    if (l.kind === 'harmful') return false;
    if (l.kind === 'good') covered = true;
  }
  return covered;
}

/** The weighted (model-graded axis) score a noise-free grader gives these rule lines. */
export function trueWeighted(skill, rules) {
  let total = 0;
  for (const c of CATEGORIES) {
    let passed = 0;
    for (const a of c.ids) for (const s of skill.scenarioIds) if (truePass(skill, rules, a, s)) passed++;
    total += c.weight * (passed / (c.ids.length * skill.scenarioIds.length));
  }
  return total;
}

/** The composite gain from text `before` to text `after`, by the truth (structure never changes). */
export function trueGain(skill, before, after) {
  return (
    ABSOLUTE_WEIGHT *
    (trueWeighted(skill, presentRules(skill, after)) - trueWeighted(skill, presentRules(skill, before)))
  );
}

// ---------------------------------------------------------------------------------------------------------
// The editor

const RULES_ANCHOR = '## Rules\n';

/**
 * Every edit the editor could make to `rules`, by what it truly does: `good` raises the true score,
 * `harmful` lowers it, `neutral` leaves it (and never removes a line: a neutral removal would be kept by
 * the simplicity bias, which is the engine working as designed, not a noisy decision).
 */
export function candidateEdits(skill, rules) {
  const before = trueWeighted(skill, rules);
  const present = new Set(rules);
  const out = { good: [], neutral: [], harmful: [] };
  const classify = (after) => {
    const d = trueWeighted(skill, after) - before;
    return d > 1e-12 ? 'good' : d < -1e-12 ? 'harmful' : 'neutral';
  };
  for (const l of skill.lines) {
    if (!present.has(l.id)) {
      const kind = classify([...rules, l.id]);
      out[kind].push({ op: 'add', line: l, assertion: l.assertion });
    } else {
      const kind = classify(rules.filter((id) => id !== l.id));
      if (kind !== 'neutral') out[kind].push({ op: 'remove', line: l, assertion: l.assertion });
    }
  }
  const absentNeutral = skill.lines.filter((l) => l.kind === 'neutral' && !present.has(l.id));
  for (const id of rules) {
    const l = skill.byId.get(id);
    if (l.kind !== 'neutral' || absentNeutral.length === 0) continue;
    out.neutral.push({
      op: 'reword',
      line: l,
      into: absentNeutral[(l.id.length + rules.length) % absentNeutral.length],
    });
  }
  return out;
}

/** The edit as the engine's editor contract has it: `{description, old_string, new_string}`. */
export function editProposal(edit, tag) {
  const cite = 'keeps the passing pairs intact (cited: assertion_id 1)';
  if (edit.op === 'add') {
    return {
      description: `Add rule ${edit.line.id} [${tag}]; ${cite}`,
      old_string: RULES_ANCHOR,
      new_string: `${RULES_ANCHOR}${edit.line.text}\n`,
    };
  }
  if (edit.op === 'remove') {
    return {
      description: `Remove rule ${edit.line.id} [${tag}]; ${cite}`,
      old_string: `${edit.line.text}\n`,
      new_string: '',
    };
  }
  return {
    description: `Reword rule ${edit.line.id} as ${edit.into.id} [${tag}]; ${cite}`,
    old_string: `${edit.line.text}\n`,
    new_string: `${edit.into.text}\n`,
  };
}

/**
 * The editor's k-th answer for a skill whose SKILL.md carries `rules`: a real improvement with probability
 * `goodEdit` (aimed at `target`, the top failure's assertion, when such an edit exists), harmful with
 * probability `harmfulEdit`, otherwise neutral; a kind with no candidate falls back to neutral.
 */
export function chooseEdit(skill, rules, { seed, k, target, goodEdit, harmfulEdit }) {
  const candidates = candidateEdits(skill, rules);
  const u = uniform(seed, skill.name, 'editor', k);
  let kind = u < goodEdit ? 'good' : u < goodEdit + harmfulEdit ? 'harmful' : 'neutral';
  if (candidates[kind].length === 0) kind = 'neutral';
  let pool = candidates[kind];
  if (kind === 'good') {
    const aimed = pool.filter((e) => e.assertion === target);
    if (aimed.length > 0) pool = aimed;
  }
  if (pool.length === 0) pool = [...candidates.good, ...candidates.harmful];
  if (pool.length === 0) return undefined;
  const edit = pool[Math.floor(uniform(seed, skill.name, 'editor-pick', k) * pool.length)];
  return { kind, edit };
}

/** The rule lines after an edit. */
export function applyToRules(rules, edit) {
  if (edit.op === 'add') return [edit.line.id, ...rules];
  if (edit.op === 'remove') return rules.filter((id) => id !== edit.line.id);
  return rules.map((id) => (id === edit.line.id ? edit.into.id : id));
}

// ---------------------------------------------------------------------------------------------------------
// Render and grade

/** A render that follows the SKILL.md: the rule lines it carries, and the trial it is. */
export function renderText(scenario, rules, nonce) {
  return [
    `## Report for ${scenario}`,
    `Applied rules: ${rules.length ? rules.join(' ') : '(none)'}`,
    `Trial: ${nonce}`,
    '- Finding: the import step times out on large files (major).',
    'Next step: the import team reproduces the failure.',
  ].join('\n');
}

/** What a render says, back from its text: the rules applied and the trial nonce. */
export function parseRender(text) {
  const rules = /Applied rules: ([^\n]*)/.exec(text)?.[1]?.match(/R\d+/g) ?? [];
  const nonce = /Trial: (\S+)/.exec(text)?.[1] ?? '';
  return { rules, nonce };
}

/**
 * One grader verdict: the truth, flipped with probability `p`. With probability `sticky` the flip is
 * decided by (render, assertion) alone — the same render graded again gets the same mistake — otherwise
 * by a fresh draw (`k`: how many times this render was graded before).
 */
export function gradeVerdict({ seed, truth, p, sticky, renderKey, assertion, k }) {
  if (p <= 0) return truth;
  const correlated = uniform(seed, 'mix', renderKey, assertion, k) < sticky;
  const draw = correlated
    ? uniform(seed, 'sticky', renderKey, assertion)
    : uniform(seed, 'fresh', renderKey, assertion, k);
  return draw < p ? !truth : truth;
}
