/**
 * What an added line silences (docs/how-it-works.md § The nightly engine improves the reviewer, "What an
 * added line silences"): the lines an edit changes, the probe writer's hunks as evals of their own (each
 * asserting "The review reports: <title> in <file>"), and the row's words when a probe's defect is
 * reported by the kept text and missed by the edit. Pure; the draws are src/iterate/loop/silencing-probe.ts.
 */
import { createHash } from 'node:crypto';
import type { Assertion, Scenario, SkillEvals } from './evals.js';
import { AGENT_SKILLS_CATEGORY } from './agent-skills-evals.js';
import type { RaisedTally } from './feedback-evidence.js';
import type { SilencingProbeAnswer } from './silencing-probe-prompt.js';
import { HUNK_MAX_CHARS, feedbackAssertion, feedbackPrompt } from '../reviewer-skill.js';
import { oneLine } from '../text/quoting.js';
import { clip, inertInline } from '../text/untrusted-text.js';

/** The lines `after` adds to `before` and the ones it removes (as multisets, trimmed, blank lines left out). */
export function changedLines(before: string, after: string): { added: string[]; removed: string[] } {
  const count = (text: string) => {
    const m = new Map<string, number>();
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (line !== '') m.set(line, (m.get(line) ?? 0) + 1);
    }
    return m;
  };
  const b = count(before);
  const a = count(after);
  const diff = (x: Map<string, number>, y: Map<string, number>) =>
    [...x].flatMap(([line, n]) => Array<string>(Math.max(0, n - (y.get(line) ?? 0))).fill(line));
  return { added: diff(a, b), removed: diff(b, a) };
}

/** One probe: the defect's title and file (one line each) and its hunk, bounded like a feedback eval's. */
export interface Probe {
  title: string;
  file: string;
  hunk: string;
}

const TITLE_MAX = 200;
const FILE_MAX = 200;

/** A probe's identity, its title, file and hunk: answers are de-duplicated on it, its scenario id hashes it. */
function probeKey(probe: Probe): string {
  return `${probe.title}\u0000${probe.file}\u0000${probe.hunk}`;
}

/** The answer's probes, bounded and de-duplicated, at most `max` of them. */
export function probesOf(answer: SilencingProbeAnswer, max: number): Probe[] {
  const seen = new Set<string>();
  const out: Probe[] = [];
  for (const p of answer.probes) {
    const probe = {
      title: oneLine(clip(p.title, TITLE_MAX)),
      file: oneLine(clip(p.file, FILE_MAX)).replace(/\s+/g, ''),
      hunk: clip(p.hunk, HUNK_MAX_CHARS),
    };
    const key = probeKey(probe);
    if (probe.title === '' || probe.file === '' || probe.hunk.trim() === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(probe);
    if (out.length >= max) break;
  }
  return out;
}

/** The probe's assertion, worded as an accepted finding's eval. */
export function probeAssertion(probe: Probe): string {
  return feedbackAssertion({ kind: 'accepted', title: probe.title, file: probe.file });
}

/**
 * The probes as evals of the Agent Skills shape: a scenario each (its prompt a feedback eval's,
 * the hunk between marker lines it cannot contain), one assertion each. A scenario's id is derived from its
 * probe, so a render cached for one probe is never read for another.
 */
export function probeEvals(probes: readonly Probe[], base: SkillEvals): SkillEvals {
  const assertions: Assertion[] = [];
  const scenarios: Scenario[] = probes.map((probe) => {
    const id = assertions.length + 1;
    assertions.push({ id, statement: probeAssertion(probe), source: '', defect_type: 'unspecified' });
    const digest = createHash('sha256').update(probeKey(probe), 'utf8').digest('hex').slice(0, 16);
    return {
      id: `silencing-probe-${digest}`,
      context: feedbackPrompt(probe.file, probe.hunk),
      expected_assertions: [id],
      expected_output: `A review of this hunk that raises "${probe.title}".`,
    };
  });
  return {
    evals: { categories: [{ name: AGENT_SKILLS_CATEGORY, weight: 1, evals: assertions }] },
    scenarios,
    requiredSections: base.requiredSections,
    format: 'agent-skills',
  };
}

/** Fresh draws the probe takes at most of one text on one probe. */
export const PROBE_DRAWS = 7;

/**
 * One text's look at one probe, sequential (docs/how-it-works.md § The nightly engine improves the
 * reviewer): `reported` once the text raised the probe's defect in 3 fresh draws, `missed` once it missed it
 * in 5 (of at most PROBE_DRAWS = 7), else `continue`. A line that silences a class leaves its defect raised
 * only by the grader's mistakes, so it is `missed` (at a 10 % flip rate, in 97 % of probes); a text that
 * silences nothing raises it in most draws, so it is `reported` (at an 82 % rate, in 99.7 %). A plain
 * majority of five, as the floor's `acceptedRecheck`, blocked an edit that silences nothing on one probe
 * in twenty, and let a silencing line through on one in twelve.
 */
export function probeLook(draws: RaisedTally): 'reported' | 'missed' | 'continue' {
  if (draws.raised >= 3) return 'reported';
  if (draws.missed >= PROBE_DRAWS - 2) return 'missed';
  return 'continue';
}

/** A probe defect the kept text reports and the edit misses, with both texts' draws. */
export interface SilencedProbe {
  probe: Probe;
  kept: RaisedTally;
  edit: RaisedTally;
}

/**
 * The row's words: "silences real defects: <title> in <file> (reported by the kept text in k of n draws,
 * by the edit in j of m)", titles and files inert (they come from a model).
 */
export function silencedNote(silenced: readonly SilencedProbe[]): string {
  const named = silenced.map(
    ({ probe, kept, edit }) =>
      `${inertInline(probe.title, 120)} in ${inertInline(probe.file, 120)} (reported by the kept text in ` +
      `${kept.raised} of ${kept.raised + kept.missed} draws, by the edit in ${edit.raised} of ` +
      `${edit.raised + edit.missed})`,
  );
  return `silences real defects: ${named.join('; ')}`;
}
