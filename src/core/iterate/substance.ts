/**
 * A skill's substance (docs/how-it-works.md § A score that never rewards deleting the skill): the words of
 * its instructions, its steps and its sections, outside the front matter and outside fenced code. The
 * structural metrics judge the form of what is there, and an empty file breaks none of their rules; this
 * module is what says that nothing is there. Pure.
 */
import { parseHeading, pySplitLines, pyStrip, isListItem, scanFences, stripBom } from './markdown.js';
import { frontmatterClose } from '../frontmatter.js';

export interface Substance {
  /** Words outside the front matter and fenced code, headings and list items included. */
  words: number;
  /** List items outside fenced code. */
  steps: number;
  /** Headings with a title outside fenced code. */
  sections: number;
}

/**
 * Below this many words of instructions the structural score is scaled down in proportion (`structural
 * × words / 100`): a skill that says nothing breaks no structural rule, and must not score as if it were
 * a good one. Real skills say far more; a three-line fragment says far less.
 */
export const SUBSTANCE_WORDS = 100;
/** A side that removes more than this share of the base's words, steps or sections removed the skill. */
const SUBSTANCE_KEPT_SHARE = 0.5;
/** Counts below these at the base are too few for a share of them to mean anything. */
const LOSS_MIN = { words: 20, steps: 3, sections: 3 } as const;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

export function measureSubstance(text: string): Substance {
  const lines = pySplitLines(stripBom(text));
  const close = frontmatterClose(lines);
  // A closed front matter is metadata, not instructions; an unclosed `---` is read as body.
  const body = typeof close === 'number' ? lines.slice(close + 1) : lines;
  const fences = scanFences(body);
  let words = 0;
  let steps = 0;
  let sections = 0;
  body.forEach((line, index) => {
    if (fences.fenced[index]) return;
    words += line.match(WORD)?.length ?? 0;
    const heading = parseHeading(line);
    if (heading) {
      if (heading.title !== '') sections++;
    } else if (isListItem(pyStrip(line))) steps++;
  });
  return { words, steps, sections };
}

/** 1 for a skill with SUBSTANCE_WORDS words of instructions or more, else its share of them. */
export function substanceFactor(substance: Substance): number {
  return Math.min(1, substance.words / SUBSTANCE_WORDS);
}

const KINDS = [
  ['words', 'words of instructions'],
  ['steps', 'steps (list items)'],
  ['sections', 'sections (headings)'],
] as const;

/**
 * Why `after` removed the substance of `before` — it keeps less than half of its words, of its steps or of
 * its sections (outside code) — or undefined when it did not. Such a change is never an improvement, a
 * keep, a ship or a passing pull request check, whatever it scores.
 */
export function substanceLoss(before: Substance, after: Substance): string | undefined {
  const lost: string[] = [];
  for (const [kind, words] of KINDS) {
    const was = before[kind];
    if (was >= LOSS_MIN[kind] && after[kind] < was * SUBSTANCE_KEPT_SHARE)
      lost.push(`${after[kind]} of ${was} ${words}`);
  }
  if (lost.length === 0) return undefined;
  return `removes most of the skill: it keeps ${lost.join(', ')}`;
}
