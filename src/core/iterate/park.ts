/**
 * Defect-park reports (docs/how-it-works.md § Defect park; docs/how-it-works.md § Calibration). Pure: the forge
 * port decides where a report goes (a GitHub issue, or a local markdown file when that fails).
 */
import { fenceFor, inlineCode } from '../text/neutralise.js';
import { redactSecrets } from '../text/redact.js';
import { inertBlock, inertInline } from '../text/untrusted-text.js';

/** A crash description in the report: the row's text is cut raw, then made inert (never a live mention). */
const DESCRIPTION_MAX = 2_000;

/** One defect-park report; the forge port decides where it goes. */
export interface ParkReport {
  skill: string;
  kind: 'crashes' | 'calibration';
  title: string;
  body: string;
  epoch: number;
}

const MARKER_PREFIX = '<!-- skillclimb:park skill=';
const MARKER_SUFFIX = ' -->';

/**
 * The hidden first line of every park body. The GitHub forge searches open issues for it so later parks
 * of the same skill comment on one issue instead of opening another.
 */
export function parkMarker(skill: string): string {
  return `${MARKER_PREFIX}${skill}${MARKER_SUFFIX}`;
}

/**
 * The skill named by the park marker on the FIRST line of `body`, or undefined when there is none. A
 * marker further down may be a copy inside model-written text and never counts.
 */
export function parseParkMarker(body: string): string | undefined {
  const line = (body.split('\n', 1)[0] ?? '').replace(/\r$/, '').trim();
  if (!line.startsWith(MARKER_PREFIX) || !line.endsWith(MARKER_SUFFIX)) return undefined;
  const skill = line.slice(MARKER_PREFIX.length, line.length - MARKER_SUFFIX.length);
  return /^[^\s<>]+$/.test(skill) ? skill : undefined;
}

// Moved to neutralise.ts, where every way of rendering untrusted text lives; re-exported for callers here.
export { fenceFor, inlineCode };

/** A report's verbatim part (results.tsv, the calibration JSON): redacted, fenced, bounded in size. */
const VERBATIM_MAX = 400_000;
const fenced = (text: string, info = ''): string => inertBlock(text, VERBATIM_MAX, info);

export interface CrashParkInput {
  skill: string;
  crashCount: number;
  /** Descriptions of the last three iterations. */
  lastDescriptions: string[];
  worktreePath: string;
  resultsTsv: string;
  epoch: number;
}

/** The defect-park issue: title `skill-iterate: <skill> parked after N consecutive crashes` + body. */
export function buildCrashParkReport(input: CrashParkInput): ParkReport {
  const { skill, crashCount } = input;
  const last = input.lastDescriptions.slice(-3);
  const descriptions =
    last.length > 0
      ? last.map((d, i) => `${i + 1}. ${inertInline(d, DESCRIPTION_MAX)}`)
      : ['1. (none recorded)'];
  const body = [
    parkMarker(skill),
    `## skill-iterate: ${skill} parked (${crashCount} consecutive crashes)`,
    '',
    `**Skill:** ${skill}`,
    `**Crash count:** ${crashCount}`,
    '**Last-3 iteration descriptions:**',
    ...descriptions,
    '',
    `**Worktree:** ${inertInline(input.worktreePath, DESCRIPTION_MAX)}`,
    '',
    '**results.tsv contents:**',
    '',
    fenced(input.resultsTsv),
    '',
  ].join('\n');
  // Crash descriptions and results.tsv quote provider errors; an issue is public and permanent.
  return {
    skill,
    kind: 'crashes',
    title: redactSecrets(`skill-iterate: ${skill} parked after ${crashCount} consecutive crashes`),
    body: redactSecrets(body),
    epoch: input.epoch,
  };
}

export interface CalibrationParkInput {
  skill: string;
  catchRate: number;
  /** The whole calibration result, shown in the body as JSON. */
  result: unknown;
  epoch: number;
  /**
   * The night scored structure only (no model grades the evals): then it is the structural checks, not a
   * grader, that missed the defects, and the report says so.
   */
  structuralOnly?: boolean | undefined;
}

/** Catch rate as a whole percentage; calibration reports a fraction in [0, 1]. */
function percent(rate: number): number {
  return Number.isFinite(rate) ? Math.round(rate * 100) : 0;
}

function threshold(result: unknown): number | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const value = (result as { threshold?: unknown }).threshold;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Calibration's park: title `skill-iterate: <skill> grader-broken-for-skill (calibration catch rate <N>%)`. */
export function buildCalibrationParkReport(input: CalibrationParkInput): ParkReport {
  const { skill } = input;
  const rate = percent(input.catchRate);
  const limit = threshold(input.result);
  const json = JSON.stringify(input.result, null, 2) ?? 'null';
  const body = [
    parkMarker(skill),
    `## skill-iterate: ${skill} grader-broken-for-skill`,
    '',
    `**Skill:** ${skill}`,
    `**Catch rate:** ${rate}%` + (limit === undefined ? '' : ` (threshold ${percent(limit)}%)`),
    '',
    input.structuralOnly
      ? 'This night scored structure only (no model grades the evals), and the structural checks could not ' +
        'tell injected defects from the baseline SKILL.md, so hill-climbing this skill on them would have ' +
        'no gradient. It was parked before its iteration loop; the mutations whose score did not drop ' +
        'below the baseline show which defect classes the structural checks miss (a night with a model ' +
        'grades the evals and calibrates its grader).'
      : 'The grader could not reliably tell injected defects from the baseline SKILL.md, so hill-climbing ' +
        'this skill would follow noise. It was parked before its iteration loop; the mutations whose score ' +
        'did not drop below the baseline show which defect classes the grader misses.',
    '',
    '**Calibration result:**',
    '',
    fenced(json, 'json'),
    '',
  ].join('\n');
  return {
    skill,
    kind: 'calibration',
    title: redactSecrets(`skill-iterate: ${skill} grader-broken-for-skill (calibration catch rate ${rate}%)`),
    body: redactSecrets(body),
    epoch: input.epoch,
  };
}
