/**
 * Feedback becomes evals (docs/how-it-works.md § The reviewer learns, "Feedback becomes evals"): a finding
 * the team dismissed becomes an eval asserting the review does NOT raise it again; a finding the team
 * accepted (fixed by a later commit of a merged pull request) one asserting the review raises it. Written
 * in the Agent Skills eval format (src/core/iterate/agent-skills-evals.ts) with the `skillclimb.feedback`
 * record, appended to the reviewer skill's `evals/evals.json` — never rewriting an eval already there —
 * de-duplicated by finding identity (src/core/review/finding-identity.ts), every fifth one a holdout, and
 * bounded. Pure: the App reads and writes the file (learn-from-feedback.ts, github/review/evals-pull.ts).
 */
import { readEvalsShape, type AgentSkillsEval } from '../core/iterate/agent-skills-evals.js';
import { EVALS_DIR, EVALS_FILE } from '../core/iterate/skill-layout.js';
import { sameFinding, type FindingKey } from '../core/review/finding-identity.js';
import {
  HUNK_MAX_CHARS,
  ReviewFeedbackSchema,
  feedbackAssertion,
  feedbackPrompt,
  type ReviewFeedback,
} from '../core/reviewer-skill.js';
import { oneLine } from '../core/text/quoting.js';
import { redactSecrets, redactValue } from '../core/text/redact.js';
import { clip } from '../core/text/untrusted-text.js';

/** Most evals the reviewer skill's file may hold: past it, nothing is added (a person prunes it first). */
export const MAX_EVALS_PER_FILE = 200;
/** Most evals one open evals pull request may add (its branch's file beyond the default branch's). */
export const MAX_EVALS_PER_PULL = 50;
/** Most evals one reviewed pull request may contribute. */
export const MAX_EVALS_PER_REVIEWED_PR = 10;
/** The diff hunk an eval quotes: at most this many lines (cut at the finding's line) and HUNK_MAX_CHARS characters. */
export const HUNK_MAX_LINES = 60;
/** Every fifth eval the App writes is a holdout (scored only to confirm a gain). */
export const HOLDOUT_EVERY = 5;
/** Titles and reasons as written into an eval. */
const TITLE_MAX = 200;
const REASON_MAX = 300;

/** One finding with the team's answer, and the hunk of the diff it was raised on. */
export interface FeedbackItem {
  feedback: ReviewFeedback;
  /** The diff hunk the finding was about (raw unified-diff text, cut to the bounds by `hunkFor`). */
  hunk: string;
}

/** The evals file of the reviewer skill in `skillDir`. */
export function evalsPathOf(skillDir: string): string {
  return `${skillDir.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '')}/${EVALS_DIR}/${EVALS_FILE}`;
}

/** The section of a unified diff for `file` (its `+++ b/<file>` side), or undefined. */
function fileSection(diff: string, file: string): string[] | undefined {
  const sections = diff.split(/^(?=diff --git )/m);
  for (const section of sections) {
    const lines = section.split('\n');
    const plus = lines.find((line) => line.startsWith('+++ '));
    const name = plus?.slice(4).trim().replace(/^b\//, '');
    if (name === file) return lines;
  }
  return undefined;
}

/**
 * The hunk of `diff` a finding on `file` at `line` was about: the hunk whose new side holds the line (else
 * the nearest, else the file's first), cut to HUNK_MAX_LINES around the line and HUNK_MAX_CHARS. Undefined
 * when the diff does not touch the file.
 */
export function hunkFor(diff: string, file: string, line: number | null | undefined): string | undefined {
  const lines = fileSection(diff, file.replace(/^\.\//, ''));
  if (!lines) return undefined;
  const hunks: Array<{ start: number; lines: string[] }> = [];
  for (const text of lines) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header) hunks.push({ start: Number(header[1]), lines: [text] });
    else if (hunks.length > 0 && text !== '' && !text.startsWith('diff --git '))
      hunks.at(-1)!.lines.push(text);
  }
  if (hunks.length === 0) return undefined;
  const end = (hunk: (typeof hunks)[number]) =>
    hunk.start + hunk.lines.slice(1).filter((text) => !text.startsWith('-')).length - 1;
  const distance = (hunk: (typeof hunks)[number]) =>
    line ? (line < hunk.start ? hunk.start - line : line > end(hunk) ? line - end(hunk) : 0) : 0;
  const chosen = [...hunks].sort((a, b) => distance(a) - distance(b))[0]!;
  let body = chosen.lines.slice(1);
  if (body.length > HUNK_MAX_LINES) {
    // Keep the lines around the finding: count new-side lines to find its place in the hunk.
    let at = 0;
    let newLine = chosen.start;
    for (const [i, text] of body.entries()) {
      if (line && newLine >= line) {
        at = i;
        break;
      }
      if (!text.startsWith('-')) newLine += 1;
    }
    const from = Math.max(0, Math.min(at - Math.floor(HUNK_MAX_LINES / 2), body.length - HUNK_MAX_LINES));
    body = body.slice(from, from + HUNK_MAX_LINES);
  }
  return clip([chosen.lines[0]!, ...body].join('\n'), HUNK_MAX_CHARS);
}

/** One eval for one item, with `id`; secrets redacted from every string of it. */
export function feedbackEval(
  item: FeedbackItem,
  id: number,
  holdout: boolean,
  secrets: readonly string[],
): AgentSkillsEval {
  const feedback = ReviewFeedbackSchema.parse({
    ...item.feedback,
    title: oneLine(clip(item.feedback.title, TITLE_MAX)),
    ...(item.feedback.reason === undefined
      ? {}
      : { reason: oneLine(clip(item.feedback.reason, REASON_MAX)) }),
  });
  const expected =
    feedback.kind === 'dismissed'
      ? `A review of this hunk that does not raise "${feedback.title}": the team dismissed it${feedback.reason ? ` (${feedback.reason})` : ''}.`
      : `A review of this hunk that raises "${feedback.title}": the team fixed it.`;
  const entry: AgentSkillsEval = {
    id,
    name: `${feedback.kind}: ${feedback.title}`,
    prompt: feedbackPrompt(feedback.file, item.hunk),
    expected_output: expected,
    assertions: [feedbackAssertion(feedback)],
    skillclimb: { ...(holdout ? { holdout: true } : {}), feedback },
  };
  return redactValue(entry, secrets);
}

/** What `appendFeedbackEvals` made of the file. */
export interface AppendResult {
  /** The file's new text, or undefined when nothing was added. */
  text: string | undefined;
  added: AgentSkillsEval[];
  /** One plain line per item left out, saying why. */
  leftOut: string[];
}

type RawEvals = { evals: Array<Record<string, unknown>> } & Record<string, unknown>;

/** The feedback record of a raw eval, when it has one. */
function feedbackOf(entry: Record<string, unknown>): ReviewFeedback | undefined {
  const field = entry.skillclimb as { feedback?: unknown } | undefined;
  const parsed = ReviewFeedbackSchema.safeParse(field?.feedback);
  return parsed.success ? parsed.data : undefined;
}

function keyOf(feedback: ReviewFeedback): FindingKey {
  return { title: feedback.title, file: feedback.file ?? null, line: feedback.line ?? null };
}

/** Reads an evals file the App may append to: absent, or in the Agent Skills format and valid. */
export function readAppendable(text: string | undefined, file: string): RawEvals | undefined {
  if (text === undefined) return undefined;
  const shape = readEvalsShape(text, false, file);
  if (shape.format !== 'agent-skills') {
    throw new Error(
      `\`${file}\` is in the original eval format; feedback evals are written only in the Agent Skills format`,
    );
  }
  return JSON.parse(text.replace(/^\uFEFF/, '')) as RawEvals;
}

/**
 * The file with the items appended as evals. `current` is the file as it stands where the App writes
 * (the open evals pull request's branch, else the default branch), `onDefault` the default branch's (for
 * the per-pull bound and the ids). Evals already in the file are kept byte for byte in content (the file
 * is re-serialised with two-space indentation); an item whose finding is already in either file, or
 * earlier in `items`, is left out, as is anything past the bounds.
 */
export function appendFeedbackEvals(input: {
  current: RawEvals | undefined;
  onDefault: RawEvals | undefined;
  skillName: string;
  items: readonly FeedbackItem[];
  secrets: readonly string[];
}): AppendResult {
  const { current, onDefault, items, secrets } = input;
  const file: RawEvals = current ? structuredClone(current) : { skill_name: input.skillName, evals: [] };
  const known = [...file.evals, ...(onDefault?.evals ?? [])]
    .map(feedbackOf)
    .filter((f): f is ReviewFeedback => f !== undefined)
    .map(keyOf);
  const defaultIds = new Set((onDefault?.evals ?? []).map((entry) => entry.id));
  const ids = [...file.evals, ...(onDefault?.evals ?? [])].map((entry) => Number(entry.id) || 0);
  let nextId = Math.max(0, ...ids) + 1;
  let fromApp = file.evals.filter((entry) => feedbackOf(entry)).length;
  let inPull = file.evals.filter((entry) => feedbackOf(entry) && !defaultIds.has(entry.id)).length;
  const perPr = new Map<number, number>();
  const added: AgentSkillsEval[] = [];
  const leftOut: string[] = [];
  for (const item of items) {
    const { feedback } = item;
    const said = `${feedback.kind} finding "${oneLine(clip(redactSecrets(feedback.title, secrets), 120))}" of #${feedback.pr}`;
    const key = keyOf(feedback);
    if (known.some((other) => sameFinding(other, key))) continue; // already an eval: not a loss, not said
    if (file.evals.length >= MAX_EVALS_PER_FILE) {
      leftOut.push(`${said}: the file holds ${MAX_EVALS_PER_FILE} evals, the most the App writes to`);
      continue;
    }
    if (inPull >= MAX_EVALS_PER_PULL) {
      leftOut.push(`${said}: this pull request adds ${MAX_EVALS_PER_PULL} evals, the most one may`);
      continue;
    }
    const count = perPr.get(feedback.pr) ?? 0;
    if (count >= MAX_EVALS_PER_REVIEWED_PR) {
      leftOut.push(`${said}: #${feedback.pr} gave ${MAX_EVALS_PER_REVIEWED_PR} evals, the most one may`);
      continue;
    }
    fromApp += 1;
    const entry = feedbackEval(item, nextId, fromApp % HOLDOUT_EVERY === 0, secrets);
    nextId += 1;
    inPull += 1;
    perPr.set(feedback.pr, count + 1);
    known.push(key);
    added.push(entry);
    file.evals.push(entry as unknown as Record<string, unknown>);
  }
  if (added.length === 0) return { text: undefined, added, leftOut };
  // The format wants one eval the loop climbs on: a file of holdouts alone has its newest one unmarked.
  if (
    file.evals.every((entry) => (entry.skillclimb as { holdout?: unknown } | undefined)?.holdout === true)
  ) {
    const last = added.at(-1)!;
    delete last.skillclimb?.holdout;
  }
  const text = `${JSON.stringify(file, null, 2)}\n`;
  readEvalsShape(text, false); // what the App writes, the reader reads: a failure here is a bug, thrown
  return { text, added, leftOut };
}

const LEFT_OUT_START = '<!-- skillclimb:left-out -->';
const LEFT_OUT_END = '<!-- /skillclimb:left-out -->';
/** Left-out lines the body keeps (the newest). */
const LEFT_OUT_KEPT = 30;
/** Evals listed in the body's table (the rest are counted). */
const TABLE_ROWS = 100;

/** The left-out lines an earlier body of the pull request said, to say them again. */
function earlierLeftOut(body: string | undefined): string[] {
  const from = body?.indexOf(LEFT_OUT_START) ?? -1;
  const to = body?.indexOf(LEFT_OUT_END) ?? -1;
  if (!body || from === -1 || to < from) return [];
  return body
    .slice(from + LEFT_OUT_START.length, to)
    .split('\n')
    .map((line) => line.replace(/^- /, '').trim())
    .filter((line) => line !== '');
}

/** The evals of `file` the App added and the default branch does not hold: this pull request's. */
export function evalsOfPull(file: RawEvals, onDefault: RawEvals | undefined): Array<Record<string, unknown>> {
  const onMain = new Set((onDefault?.evals ?? []).map((entry) => entry.id));
  return file.evals.filter((entry) => feedbackOf(entry) && !onMain.has(entry.id));
}

/**
 * The evals pull request's body: what it is, how to edit it, a table of its evals, and what was left out
 * (this time and the times before). Every text from a review is inert and redacted (`inert`).
 */
export function evalsPullBody(input: {
  marker: string;
  path: string;
  evals: ReadonlyArray<Record<string, unknown>>;
  leftOut: readonly string[];
  previousBody: string | undefined;
  inert: (text: string, max: number) => string;
}): string {
  const { inert } = input;
  const rows = input.evals.slice(0, TABLE_ROWS).map((entry) => {
    const feedback = feedbackOf(entry)!;
    const holdout = (entry.skillclimb as { holdout?: unknown } | undefined)?.holdout === true;
    const where = feedback.file
      ? `${inert(feedback.file, 120)}${feedback.line ? `:${feedback.line}` : ''}`
      : '—';
    const by = feedback.by ? ` (${inert(feedback.by, 40)})` : '';
    return `| ${Number(entry.id)} | ${feedback.kind === 'dismissed' ? 'not raised again' : 'raised'} | ${inert(feedback.title, 150)} | ${where} | #${feedback.pr}${by} | ${holdout ? 'yes' : ''} |`;
  });
  const more = input.evals.length - rows.length;
  const leftOut = [
    ...earlierLeftOut(input.previousBody),
    ...input.leftOut.map((line) => inert(line, 300)),
  ].slice(-LEFT_OUT_KEPT);
  return [
    input.marker,
    '## Reviewer evals from the team’s answers to review findings',
    '',
    `The review loop turned findings the team dismissed or fixed into evals of the reviewer skill, in \`${input.path}\` (the Agent Skills eval format). A dismissed finding's eval asserts the review does not raise it again; a fixed finding's asserts the review still raises it. Only answers from people with write access count, and every fifth eval is a holdout.`,
    '',
    'Edit or delete any eval on this branch before merging, or after: the App only appends evals, never changes or removes one already in the file, and skips a finding that already has an eval here or on the default branch. A deleted eval comes back only if a later pull request gets the same answer again.',
    '',
    '| id | the review | finding | file | from | holdout |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    ...(more > 0 ? ['', `…and ${more} more in the file.`] : []),
    '',
    ...(leftOut.length > 0
      ? ['**Left out**', LEFT_OUT_START, ...leftOut.map((line) => `- ${line}`), LEFT_OUT_END]
      : ['Nothing was left out.']),
  ].join('\n');
}
