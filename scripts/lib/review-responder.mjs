/**
 * The models of `npm run bench:review-quality`, answering over the loopback model server
 * (latency-model-server.mjs) from the hidden truth of review-world.mjs. Each reads only its prompt: the
 * files at the head come in the prompt's FILE blocks, and a slot is present when its defective line is
 * there, so every answer follows the code the engine actually showed.
 *
 * - REVIEWER (the review prompt, also when the engine asks for a fresh second review): reports each
 *   present defect with probability `r`, or `carried` when its finding is among the open findings the
 *   prompt carries forward; repeats each carried invented finding with probability `stick`; invents new
 *   ones (a Poisson number with mean `invent`, drawn from the catalogue). Its verdict follows what it
 *   reports — a critical or major finding: "not ready" (score 3 or 5); minor ones only: "almost" (7);
 *   none: "ready" (8) — and is then flipped with probability `flip`.
 * - CHECKER (a prompt asking whether numbered findings hold at the head; only the new build asks): a
 *   present defect holds with probability `checkKeep`; anything else (invented, or already fixed) with
 *   `checkFalse`.
 * - EXECUTOR (the fix prompt): when the prompt asks it to check findings first (a CHECK block of their
 *   numbers; only the new build asks), checks each as the CHECKER does and leaves one that does not hold
 *   alone; fixes each named present defect with probability `fixRate`, otherwise
 *   makes an edit that does not fix it (a comment above the line); "fixes" an invented finding with a
 *   harmless comment; and with probability `breakRate` per fix also turns a correct slot it was not asked
 *   about into its defect.
 *
 * Random draws come from one seeded stream per role, so two builds see the same draws in the same order
 * of reviews, checks and fixes.
 */
import { prng } from './quality-world.mjs';
import { INVENTED, INVENTED_BY_TITLE, SLOT_BY_TITLE, SLOTS, lineOf } from './review-world.mjs';

const SEVERITY_ORDER = { critical: 0, major: 1, minor: 2 };

/** `{path: text}` of the FILE blocks of a prompt. */
export function filesOf(text) {
  const files = {};
  const re = /BEGIN-FILE-(\S+)\npath: (.*)\n\n([\s\S]*?)\nEND-FILE-\1/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) files[m[2]] = m[3];
  return files;
}

/** The text of the first block with this label (`BEGIN-<label>-<marker>` … `END-<label>-<marker>`). */
export function blockOf(text, label) {
  const m = new RegExp(`BEGIN-${label}-(\\S+)\\n([\\s\\S]*?)\\nEND-${label}-\\1`).exec(text);
  return m ? m[2] : '';
}

/** Numbered findings of a list rendered as `N. [severity] Title (file:line)`: number → title. */
export function numberedTitles(block) {
  const out = [];
  for (const line of block.split('\n')) {
    const m = /^(\d+)\. \[(critical|major|minor)\] (.*?)(?: \([^()]*\))?$/.exec(line);
    if (m) out.push({ n: Number(m[1]), title: m[3] });
  }
  return out;
}

function poisson(random, mean) {
  if (mean <= 0) return 0;
  const limit = Math.exp(-mean);
  let n = 0;
  for (let p = random(); p > limit; p *= random()) n++;
  return n;
}

function weakness(entry, files) {
  const line = lineOf(files[entry.file], entry.bad ?? entry.anchor);
  return {
    ...entry.finding,
    effort: 'small',
    line,
  };
}

function verdictOf(findings, flipped) {
  const worst = Math.min(...findings.map((f) => SEVERITY_ORDER[f.severity]), 3);
  let positive = worst >= 2;
  if (flipped) positive = !positive;
  if (flipped) return positive ? { score: 7, verdict: 'ready' } : { score: 5, verdict: 'not ready' };
  if (worst === 0) return { score: 3, verdict: 'not ready' };
  if (worst === 1) return { score: 5, verdict: 'not ready' };
  return worst === 2 ? { score: 7, verdict: 'almost' } : { score: 8, verdict: 'ready' };
}

const REVIEWER = 'You are the independent reviewer in an autonomous review loop (review → fix → re-review)';
const EXECUTOR = 'You are the executor in an autonomous review loop';
/** The new build's finding check; matched loosely so a reworded prompt still routes. */
const CHECKER = /check(?:s|ing)? (?:each |the )?findings?/i;

/**
 * The answering function for one pull request's model server, with counters the benchmark reads:
 * `stats.reviews`, `stats.checks`, `stats.fixes`, `stats.other`.
 */
export function createReviewResponder(seed, level) {
  const streams = {
    review: prng(`${seed}:review`),
    check: prng(`${seed}:check`),
    fix: prng(`${seed}:fix`),
  };
  const stats = { reviews: 0, checks: 0, fixes: 0, other: 0 };

  function review(text) {
    const random = streams.review;
    const files = filesOf(text);
    const carried = new Set(numberedTitles(blockOf(text, 'OPEN-FINDINGS')).map((t) => t.title));
    const findings = [];
    for (const s of SLOTS) {
      if (!files[s.file] || lineOf(files[s.file], s.bad) === null) continue;
      if (random() < (carried.has(s.finding.title) ? level.carried : level.r))
        findings.push(weakness(s, files));
    }
    for (const title of carried) {
      const f = INVENTED_BY_TITLE.get(title);
      if (f && random() < level.stick) findings.push(weakness(f, files));
    }
    for (let i = poisson(random, level.invent); i > 0; i--) {
      const f = INVENTED[Math.floor(random() * INVENTED.length)];
      if (!findings.some((x) => x.title === f.finding.title)) findings.push(weakness(f, files));
    }
    findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
    const { score, verdict } = verdictOf(findings, random() < level.flip);
    return {
      score,
      verdict,
      summary: findings.length ? `${findings.length} problem(s) found.` : 'The change does what it claims.',
      weaknesses: findings,
      memory_update: findings.map((f) => `suspect: ${f.title}`).join('; ') || 'nothing open',
    };
  }

  /** One finding checked against the files shown: a present defect holds with `checkKeep`, else `checkFalse`. */
  function holds(files, title) {
    const s = SLOT_BY_TITLE.get(title);
    const real = s !== undefined && files[s.file] !== undefined && lineOf(files[s.file], s.bad) !== null;
    const held = streams.check() < (real ? level.checkKeep : level.checkFalse);
    return {
      holds: held,
      evidence: held ? 'The cited line does what the finding says.' : 'The cited code does not do that.',
    };
  }

  function check(text) {
    const files = filesOf(text);
    const listed = numberedTitles(blockOf(text, 'FINDINGS'));
    return { checks: listed.map(({ n, title }) => ({ finding: n, ...holds(files, title) })) };
  }

  function fix(text) {
    const random = streams.fix;
    const files = filesOf(text);
    const edits = [];
    const touched = new Set();
    const comment = (line, note) => {
      const indent = /^\s*/.exec(line)[0];
      return { old_string: line, new_string: `${indent}// ${note}\n${line}` };
    };
    const toCheck = new Set(
      blockOf(text, 'CHECK')
        .split(/[^0-9]+/)
        .filter(Boolean)
        .map(Number),
    );
    const checks = [];
    for (const { n, title } of numberedTitles(blockOf(text, 'WEAKNESSES'))) {
      const s = SLOT_BY_TITLE.get(title);
      if (toCheck.has(n)) {
        const checked = holds(files, title);
        checks.push({ finding: n, ...checked });
        if (!checked.holds) continue;
      }
      if (s && files[s.file] && lineOf(files[s.file], s.bad) !== null && !touched.has(s.id)) {
        touched.add(s.id);
        edits.push(
          random() < level.fixRate
            ? { path: s.file, old_string: s.bad, new_string: s.good }
            : { path: s.file, ...comment(s.bad, 'Reviewed: the bounds are checked by the caller.') },
        );
        continue;
      }
      const f = INVENTED_BY_TITLE.get(title);
      if (f && files[f.file] && !touched.has(f.id)) {
        touched.add(f.id);
        edits.push({ path: f.file, ...comment(f.anchor, 'Checked in review: correct as written.') });
      }
    }
    if (edits.length > 0 && random() < level.breakRate) {
      const candidates = SLOTS.filter(
        (s) => files[s.file] && !touched.has(s.id) && lineOf(files[s.file], s.good) !== null,
      );
      const s = candidates[Math.floor(random() * candidates.length)];
      if (s) edits.push({ path: s.file, old_string: s.good, new_string: s.bad });
    }
    return { summary: `${edits.length} edit(s)`, edits, ...(checks.length ? { checks } : {}) };
  }

  return {
    stats,
    respond(call) {
      if (call.system.includes(REVIEWER)) {
        stats.reviews++;
        return { json: review(call.text) };
      }
      if (call.system.includes(EXECUTOR)) {
        stats.fixes++;
        return { json: fix(call.text) };
      }
      if (CHECKER.test(call.system)) {
        stats.checks++;
        return { json: check(call.text) };
      }
      stats.other++;
      return { status: 400, body: { error: { message: 'bench: a prompt this world does not answer' } } };
    },
  };
}
