/**
 * The answers of `npm run bench:quality`'s loopback model server (scripts/lib/latency-model-server.mjs) in
 * the simulated world of quality-world.mjs: one responder per run, which tells each request's role from its
 * system prompt, answers it from the hidden truth, and records what the run cannot report itself — each
 * edit's true effect (by the tag in its description) and the calls per role.
 */
import {
  DEFAULTS,
  applyToRules,
  chooseEdit,
  editProposal,
  gradeVerdict,
  parseRender,
  presentRules,
  renderText,
  truePass,
  trueWeighted,
  uniform,
  ABSOLUTE_WEIGHT,
} from './quality-world.mjs';

const CHARS_PER_TOKEN = 4;
const tokens = (text) => Math.max(1, Math.round(String(text).length / CHARS_PER_TOKEN));

/**
 * editor, grader, probe (the silencing probe's writer, asked only about skills whose evals carry feedback
 * records: bench:review-nights) or render, from the system prompt (the engine's fixed instructions, or a
 * SKILL.md).
 */
export function roleOfPrompt(system) {
  if (/^You are a strict editor\b/.test(system.trimStart())) return 'editor';
  if (/^You are a strict, impartial grader\b/.test(system.trimStart())) return 'grader';
  if (/^You write test cases for a code reviewer's instructions\b/.test(system.trimStart())) return 'probe';
  return 'render';
}

/** The skill a request is about: a SKILL.md's `name:`, else the scenario's `Request k for <skill>:`. */
function skillOf(world, ...texts) {
  for (const text of texts) {
    const name = /^name: (q-skill-\d+)$/m.exec(text)?.[1] ?? / for (q-skill-\d+):/.exec(text)?.[1];
    if (name && world.byName.has(name)) return world.byName.get(name);
  }
  return undefined;
}

/** The SKILL.md an editor prompt quotes (editor-prompt.ts), else everything after "Current SKILL.md:". */
function quotedSkillMd(text) {
  return (
    /<<<SKILL_MD\n([\s\S]*?)\nSKILL_MD>>>/.exec(text)?.[1] ?? /Current SKILL\.md:\n([\s\S]*)$/.exec(text)?.[1]
  );
}

/**
 * A responder for startLatencyModelServer. `p`: the grader's flip probability; `sticky`: the share of
 * verdicts whose flip is decided by (render, assertion) alone. `edits`: tag → the edit's true effect.
 */
export function createQualityResponder(world, { p, sticky = DEFAULTS.sticky, ...rest }) {
  const goodEdit = rest.goodEdit ?? DEFAULTS.goodEdit;
  const harmfulEdit = rest.harmfulEdit ?? DEFAULTS.harmfulEdit;
  const seed = world.seed;
  const counts = new Map();
  const bump = (key) => {
    const k = counts.get(key) ?? 0;
    counts.set(key, k + 1);
    return k;
  };
  const calls = { editor: 0, render: 0, grader: 0 };
  const edits = new Map();
  const usage = (prompt, answer) => ({ input: tokens(prompt), output: tokens(answer) });

  function editor(call) {
    const skillMd = quotedSkillMd(call.text);
    const skill = skillOf(world, skillMd ?? '', call.text);
    if (!skill || skillMd === undefined) throw new Error('editor request without a known SKILL.md');
    const k = bump(`editor:${skill.name}`);
    const rules = presentRules(skill, skillMd);
    const target = Number(/assertion_id:\s*(\d+)/.exec(call.text)?.[1]);
    const choice = chooseEdit(skill, rules, { seed, k, target, goodEdit, harmfulEdit });
    if (!choice) throw new Error(`${skill.name}: no edit possible`);
    const tag = `edit ${skill.name}#${k + 1}`;
    const after = applyToRules(rules, choice.edit);
    edits.set(tag, {
      skill: skill.name,
      kind: choice.kind,
      trueDelta: ABSOLUTE_WEIGHT * (trueWeighted(skill, after) - trueWeighted(skill, rules)),
    });
    return { json: editProposal(choice.edit, tag) };
  }

  function render(call) {
    const skill = skillOf(world, call.system, call.text);
    const scenario = /Request (\d+) for /.exec(call.text)?.[1];
    if (!skill || scenario === undefined) throw new Error('render request for no known scenario');
    // Without the skill's instructions (an uplift render), no rule line applies.
    const rules = /^name: q-skill-/m.test(call.system) ? presentRules(skill, call.system) : [];
    const id = `scenario_${scenario}`;
    const k = bump(`render:${skill.name}:${id}:${rules.join(',')}`);
    const nonce = Math.floor(uniform(seed, 'nonce', skill.name, id, rules.join(','), k) * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
    return renderText(id, rules, nonce);
  }

  function grader(call) {
    const all = `${call.text}`;
    const skill = skillOf(world, all);
    const scenario = /^id: (scenario_\d+)$/m.exec(all)?.[1];
    const ids = (/Assertions to grade \(ids: ([\d, ]+)\)/.exec(all)?.[1] ?? '')
      .split(',')
      .map((s) => Number(s.trim()))
      .filter(Number.isInteger);
    if (!skill || !scenario || ids.length === 0) throw new Error('grader request without a known scenario');
    const output = /OUTPUT to grade[\s\S]*$/.exec(all)?.[0] ?? '';
    const { rules, nonce } = parseRender(output);
    const renderKey = `${skill.name}:${scenario}:${rules.join(',')}:${nonce}`;
    const k = bump(`grade:${renderKey}`);
    const verdicts = {};
    for (const id of ids) {
      const truth = truePass(skill, rules, id, scenario);
      const verdict = gradeVerdict({ seed, truth, p, sticky, renderKey, assertion: id, k });
      verdicts[String(id)] = { verdict, reason: verdict ? 'the report meets it' : 'the report misses it' };
    }
    return { json: { verdicts } };
  }

  const respond = (call) => {
    const role = roleOfPrompt(call.system ?? '');
    // This world's evals carry no feedback records, so the engine never asks for silencing probes.
    if (role === 'probe') throw new Error('a silencing-probe request in a world without feedback evals');
    const reply = role === 'editor' ? editor(call) : role === 'grader' ? grader(call) : render(call);
    calls[role]++;
    const answer = typeof reply === 'string' ? reply : JSON.stringify(reply.json);
    // Usage given here keeps the server's prompt-cache simulation (and its memory) out of this bench.
    const out = typeof reply === 'string' ? { text: reply } : reply;
    return { ...out, usage: usage(`${call.system}${call.text}`, answer) };
  };
  return { respond, calls, edits };
}
