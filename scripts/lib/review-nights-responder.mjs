/**
 * The models of one night of `npm run bench:review-nights`, answering the REAL skill-iterate engine over the
 * loopback model server (latency-model-server.mjs) from the rules of review-nights-world.mjs:
 *
 * - EDITOR: adds one instruction line to the reviewer skill's `## Rules`: with probability `goodEdit` the
 *   instruction that silences a false class whose "does not report" eval the prompt shows failing (else one
 *   whose dismissal eval it shows at all); with probability `harmfulEdit` a harmful line (one silences real
 *   defects only; one also silences the minor false classes); otherwise a neutral line.
 * - RENDER (system prompt = the SKILL.md, user turn = the eval's diff hunk): the simulated reviewer of the
 *   world, following the SKILL.md's rule lines; a fresh draw per trial.
 * - GRADER: the truth of "The review (does not) report(s): <title> in <file>" against the render's text,
 *   flipped with probability `p` (half of the flips repeat when the same render is graded again).
 * - PROBE (the silencing probe's writer, docs/how-it-works.md § The nightly engine improves the reviewer):
 *   for a change whose added lines silence real classes (HARMFUL[].silences), each probe is the hunk of a
 *   silenced real class with probability `probeHit` (0.8), else of a real class the change does not
 *   silence; for good and neutral lines, hunks of real classes the change does not silence. The title is
 *   the class's, the file one of its files (no (class, file) twice in one answer while another is left),
 *   so the renders and the grader follow the world's rules.
 */
import { gradeVerdict, uniform } from './quality-world.mjs';
import { roleOfPrompt } from './quality-responder.mjs';
import {
  FALSE_CLASSES,
  HARMFUL,
  NEUTRAL,
  REAL_CLASSES,
  hunkOf,
  parseAssertion,
  reports,
  review,
  reviewText,
  rulesOf,
} from './review-nights-world.mjs';

const RULES_ANCHOR = '## Rules\n';
const CHARS_PER_TOKEN = 4;
const tokens = (text) => Math.max(1, Math.round(String(text).length / CHARS_PER_TOKEN));

function quotedSkillMd(text) {
  return (
    /<<<SKILL_MD\n([\s\S]*?)\nSKILL_MD>>>/.exec(text)?.[1] ?? /Current SKILL\.md:\n([\s\S]*)$/.exec(text)?.[1]
  );
}

/**
 * `seed`: the run's seed and night; `level`: the reviewer's `pFalse`/`r`; `p`: the grader's flip rate.
 * `edits` records each proposed line by the tag in its description.
 */
export function createNightResponder({
  seed,
  level,
  p,
  sticky = 0.5,
  goodEdit = 0.4,
  harmfulEdit = 0.25,
  probeHit = 0.8,
}) {
  const counts = new Map();
  const bump = (key) => {
    const k = counts.get(key) ?? 0;
    counts.set(key, k + 1);
    return k;
  };
  // probeDraws: the renders and grades of the probe writer's hunks (counted in render and grader too).
  const calls = { editor: 0, render: 0, grader: 0, probe: 0, probeDraws: 0 };
  const edits = new Map();

  function editor(call) {
    const skillMd = quotedSkillMd(call.text);
    if (skillMd === undefined) throw new Error('editor request without a SKILL.md');
    const rules = new Set(rulesOf(skillMd));
    const k = bump('editor');
    const u = uniform(seed, 'editor', k);
    const pick = (xs) => xs[Math.floor(uniform(seed, 'editor-pick', k) * xs.length)];
    // A real editor heeds the engine's list of edits already reverted this run.
    const reverted = /Edits already tried and reverted[^\n]*\n((?: {2}- .*\n?)*)/.exec(call.text)?.[1] ?? '';
    const tried = (line) => reverted.includes(line.slice(2));
    const open = FALSE_CLASSES.filter((c) => !rules.has(c.instruction) && !tried(c.instruction));
    const failing = open.filter((c) =>
      new RegExp(
        `statement: .*The review does not report: ${c.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      ).test(call.text),
    );
    const shown = open.filter((c) => call.text.includes(`The review does not report: ${c.title}`));
    let kind = u < goodEdit ? 'good' : u < goodEdit + harmfulEdit ? 'harmful' : 'neutral';
    let line;
    if (kind === 'good') line = pick(failing.length ? failing : shown)?.instruction;
    if (kind === 'harmful') line = pick(HARMFUL.filter((h) => !rules.has(h.text) && !tried(h.text)))?.text;
    if (line === undefined) {
      kind = 'neutral';
      line = pick(NEUTRAL.filter((n) => !rules.has(n) && !tried(n)));
    }
    // Every line tried: one of them again (a real editor repeats itself too).
    if (line === undefined) {
      const all = [...FALSE_CLASSES.map((c) => c.instruction), ...HARMFUL.map((h) => h.text), ...NEUTRAL];
      line = pick(all.filter((l) => !rules.has(l)));
      kind = FALSE_CLASSES.some((c) => c.instruction === line)
        ? 'good'
        : HARMFUL.some((h) => h.text === line)
          ? 'harmful'
          : 'neutral';
    }
    if (line === undefined) throw new Error('the editor has no line left to add');
    const tag = `edit ${seed}#${k + 1}`;
    edits.set(tag, { kind, line });
    return {
      json: {
        description: `Add the instruction "${line.slice(2)}" [${tag}]; keeps the passing pairs intact (cited: assertion_id 1)`,
        old_string: RULES_ANCHOR,
        new_string: `${RULES_ANCHOR}${line}\n`,
      },
    };
  }

  function render(call) {
    const rules = rulesOf(call.system);
    const key = `${rules.join('|')}\u0000${call.text}`;
    const k = bump(`render:${key}`);
    const found = review(
      rules,
      call.text,
      (c, file) => uniform(seed, 'render', c.id, file, rules.join('|'), k),
      { pFalse: level.repeat, r: level.repeat },
    );
    const nonce = Math.floor(uniform(seed, 'nonce', key, k) * 2 ** 32).toString(16);
    return `${reviewText(found)}\n\n(review ${nonce})`;
  }

  function grader(call) {
    const text = String(call.text);
    // The render's text without the call's random marker, so a seed replays.
    const output = /BEGIN-OUTPUT-(\S+)\n([\s\S]*?)\nEND-OUTPUT-\1/.exec(text)?.[2] ?? '';
    const verdicts = {};
    const k = bump(`grade:${output}`);
    for (const m of text.matchAll(/^- id (\d+) \[[^\]]*\]: (.*)$/gm)) {
      const a = parseAssertion(m[2]);
      if (!a) throw new Error(`grader request with an assertion this world does not know: ${m[2]}`);
      const said = reports(output, a.c, a.file);
      const truth = a.kind === 'accepted' ? said : !said;
      const verdict = gradeVerdict({ seed, truth, p, sticky, renderKey: output, assertion: m[1], k });
      verdicts[m[1]] = { verdict, reason: verdict ? 'the review meets it' : 'the review misses it' };
    }
    if (Object.keys(verdicts).length === 0) throw new Error('grader request without assertions');
    return { json: { verdicts } };
  }

  function probe(call) {
    // The change's lines, between the CHANGE block's marker lines (silencing-probe-prompt.ts).
    const change = /BEGIN-CHANGE-(\S+)\n([\s\S]*?)\nEND-CHANGE-\1/.exec(call.text)?.[2];
    if (change === undefined) throw new Error('probe request without a CHANGE block');
    const max = Number(/Write up to (\d+) minimal diff hunks/.exec(call.system)?.[1] ?? 3);
    const added = change
      .split('\n')
      .filter((l) => l.startsWith('+ added: '))
      .map((l) => l.slice('+ added: '.length));
    const lines = HARMFUL.filter((h) => added.includes(h.text));
    const silencedBy = (c) => lines.some((h) => h.silences(c));
    const hit = REAL_CLASSES.filter(silencedBy);
    const other = REAL_CLASSES.filter((c) => !silencedBy(c));
    const k = bump('probe');
    const probes = [];
    // A real writer does not repeat a hunk in one answer: each (class, file) once while others are left.
    const pairs = (classes) => classes.flatMap((c) => c.files.map((file) => ({ c, file })));
    const used = (x) => probes.some((p) => p.title === x.c.title && p.file === x.file);
    for (let i = 0; i < max; i++) {
      const pool = hit.length > 0 && uniform(seed, 'probe-hit', k, i) < probeHit ? hit : other;
      const all = pairs(pool.length > 0 ? pool : REAL_CLASSES);
      const fresh = all.filter((x) => !used(x));
      const xs = fresh.length > 0 ? fresh : all;
      const { c, file } = xs[Math.floor(uniform(seed, 'probe', k, i) * xs.length)];
      probes.push({ title: c.title, file, hunk: hunkOf(c, file) });
    }
    return { json: { probes } };
  }

  const respond = (call) => {
    const role = roleOfPrompt(call.system ?? '');
    const reply =
      role === 'editor'
        ? editor(call)
        : role === 'grader'
          ? grader(call)
          : role === 'probe'
            ? probe(call)
            : render(call);
    calls[role]++;
    // A probe's eval quotes its hunk between BEGIN-DIFF lines (core/iterate/silencing-probe.ts); the team's do not.
    if ((role === 'render' || role === 'grader') && /^BEGIN-DIFF-/m.test(call.text)) calls.probeDraws++;
    const answer = typeof reply === 'string' ? reply : JSON.stringify(reply.json);
    const out = typeof reply === 'string' ? { text: reply } : reply;
    return { ...out, usage: { input: tokens(`${call.system}${call.text}`), output: tokens(answer) } };
  };
  return { respond, calls, edits };
}
