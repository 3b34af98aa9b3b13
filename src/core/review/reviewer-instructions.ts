/**
 * The reviewer's instructions (docs/how-it-works.md § The reviewer learns, "The reviewer's instructions as a
 * skill"): the built-in ones, or a repository's reviewer skill read from its DEFAULT branch — never from the
 * change under review, so a pull request cannot change how it is itself reviewed. The skill's body (its
 * front matter dropped, its size bounded) says what to look for; the answer format, the rules for untrusted
 * data and the verdict scale stay the engine's own (prompts.ts), whatever the skill says.
 */
import { frontmatterClose } from '../frontmatter.js';
import { REVIEWER_SKILL_NAME } from '../reviewer-skill.js';
import { reviewerAsks, scopeLimits } from './prompts.js';
import type { Preset } from './state.js';

/** The skill's file inside its folder (the Agent Skills layout). */
export const REVIEWER_SKILL_FILE = 'SKILL.md';
/**
 * At most this much of a reviewer skill is read (the specification asks for under 500 lines; every review
 * call carries the text): a longer file is cut at a line and the record says so.
 */
export const MAX_REVIEWER_SKILL_BYTES = 20_000;

/** What reading `<dir>/SKILL.md` on the default branch gave. */
export type ReviewerSkillRead =
  | { kind: 'file'; text: string; bytes: number; truncated: boolean }
  | { kind: 'missing' }
  /** A folder, a symbolic link, a binary file: not a SKILL.md to follow. */
  | { kind: 'not-a-file'; what: string }
  /** The read failed (the API, git): the built-in instructions are used and the record says why. */
  | { kind: 'unreadable'; detail: string };

export type ReviewerInstructions =
  | {
      source: 'built-in';
      /** Why a skill that was looked for is not used (absent is no reason to mention: it is the default). */
      note?: string | undefined;
    }
  | {
      source: 'skill';
      /** `<dir>/SKILL.md`, repository-relative. */
      path: string;
      /** The default branch's commit it was read at. */
      commit: string;
      /** The body, front matter dropped: what the reviewer is asked to look for. */
      text: string;
      /** The file's whole size when it was cut to MAX_REVIEWER_SKILL_BYTES. */
      cutFrom?: number | undefined;
    };

const BUILT_IN_INSTRUCTIONS: ReviewerInstructions = { source: 'built-in' };

/**
 * `<dir>/SKILL.md` for a folder named in `.github/review-loop.yml` (`reviewer_skill`) or on the command
 * line, repository-relative; undefined for a path that leaves the repository or is not a plain path.
 */
export function reviewerSkillFile(dir: string): string | undefined {
  const clean = dir
    .trim()
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  const segments = clean.split('/');
  if (clean === '' || clean.startsWith('/') || clean.includes('\\')) return undefined;
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return `${clean}/${REVIEWER_SKILL_FILE}`;
}

/** The file's body: a leading `---` … `---` front matter dropped, blank edges trimmed. */
export function skillBody(text: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const close = frontmatterClose(lines);
  if (close === undefined) return text.trim();
  // An unclosed front matter holds no body.
  return close === null
    ? ''
    : lines
        .slice(close + 1)
        .join('\n')
        .trim();
}

/** A cut file ends at its last whole line (a cut mid-line could leave half an instruction). */
function wholeLines(text: string): string {
  const end = text.lastIndexOf('\n');
  return end === -1 ? text : text.slice(0, end);
}

/** The instructions a read gives; `where` names the file and the commit for the record. */
export function instructionsFrom(
  read: ReviewerSkillRead,
  where: { path: string; commit: string; ref: string },
): ReviewerInstructions {
  const at = `${where.path} on ${where.ref}`;
  switch (read.kind) {
    case 'missing':
      return BUILT_IN_INSTRUCTIONS;
    case 'not-a-file':
      return { source: 'built-in', note: `${at} is ${read.what}, not a file` };
    case 'unreadable':
      return { source: 'built-in', note: `${at} could not be read (${read.detail})` };
    case 'file': {
      const text = skillBody(read.truncated ? wholeLines(read.text) : read.text);
      if (text === '')
        return { source: 'built-in', note: `${at} has no instructions after its front matter` };
      return {
        source: 'skill',
        path: where.path,
        commit: where.commit,
        text,
        ...(read.truncated ? { cutFrom: read.bytes } : {}),
      };
    }
  }
}

/** One sentence for the record (the check run's summary, the CLI's log and AUTO_REVIEW.md). */
export function instructionsSentence(instructions: ReviewerInstructions): string {
  if (instructions.source === 'built-in') {
    return instructions.note === undefined
      ? 'Reviewed with the built-in instructions.'
      : `Reviewed with the built-in instructions: ${instructions.note}.`;
  }
  const cut =
    instructions.cutFrom === undefined
      ? ''
      : `, cut to its first ${MAX_REVIEWER_SKILL_BYTES.toLocaleString('en-US')} bytes of ` +
        `${instructions.cutFrom.toLocaleString('en-US')}`;
  return (
    `Reviewed with the repository's reviewer skill ${instructions.path} ` +
    `(commit ${instructions.commit.slice(0, 7)})${cut}.`
  );
}

/** What the built-in instructions say, as a skill's body: the role, the four asks and the scope limits. */
export function builtInInstructionsText(preset: Preset): string {
  return `${reviewerAsks(preset)}\n\n${scopeLimits(preset)}`;
}

const DESCRIPTION =
  'The instructions of the review-loop reviewer: what to look for when reviewing a change in this ' +
  'repository, what is out of scope, and how hard to push. The review-loop App reads this file from the ' +
  'default branch and reviews every pull request with it; the answer format, the verdict scale and the ' +
  'rules for untrusted text stay built in.';

/**
 * The built-in instructions as a SKILL.md (`skillclimb reviewer init`), valid under the Agent Skills spec:
 * `name` is the folder's name (`review-loop-reviewer` by default).
 */
export function builtInReviewerSkill(preset: Preset, name: string = REVIEWER_SKILL_NAME): string {
  return [
    '---',
    `name: ${name}`,
    `description: ${DESCRIPTION}`,
    '---',
    '',
    '# The reviewer',
    '',
    builtInInstructionsText(preset),
    '',
  ].join('\n');
}
