/**
 * `/review-loop` commands, read from the FIRST line of a pull-request comment only (docs/how-it-works.md
 * § The App). Pure: no API call, so the webhook handler can decide "ours or not" before it answers.
 *
 * - `/review-loop [difficulty: medium|hard|nightmare] [rounds: N] [fix: auto|manual|none] [checkpoint: on|off]
 *   [preset: code|research]` starts a loop;
 * - `/review-loop go | continue | skip 1,3 | stop | status | help` steer one, or list the commands;
 * - `/review-loop note: <text>` is guidance for the next fix (the rest of the comment comes with it).
 *
 * The command word is matched case-insensitively (`/Review-Loop`). Anything else after it — an unknown
 * word, an option without its colon (`rounds 3`, first or after other options), an unknown `key:` — is
 * malformed and answered with the valid commands or options, never taken as guidance: guidance has
 * exactly one form, `note:`. Where a problem lists the options, it says so (`listsOptions`) instead of
 * listing them: the reply lists them with the round limit the repository's budget sets, which the parser
 * does not know (docs/how-it-works.md § The App).
 */

import { DIFFICULTIES, FIX_MODES, PRESETS } from '../../core/review/state.js';
import type { Difficulty, FixMode, Preset } from '../../core/review/state.js';

export const COMMAND = '/review-loop';

/** Most rounds any loop may run (the App's REVIEW_LOOP_MAX_ROUNDS and a repository's budget may lower it). */
export const MAX_ROUNDS_LIMIT = 20;
/** Guidance is kept in the sticky state and quoted in a prompt: bounded. */
export const MAX_GUIDANCE_CHARS = 4000;

/** What a start command set; anything left out comes from the configuration. */
export interface StartOptions {
  difficulty?: Difficulty;
  rounds?: number;
  fix?: FixMode;
  checkpoint?: boolean;
  preset?: Preset;
}

export type Command =
  | { kind: 'start'; options: StartOptions }
  | { kind: 'go' }
  | { kind: 'continue' }
  | { kind: 'skip'; items: number[] }
  | { kind: 'stop' }
  | { kind: 'status' }
  | { kind: 'help' }
  | { kind: 'guidance'; text: string }
  /** `dismiss <n> [reason]`: weakness n of the last review is not to be raised again. */
  | { kind: 'dismiss'; item: number; reason: string };

export type ParsedCommand =
  /** Not a `/review-loop` comment at all: never answered. */
  | { status: 'none' }
  | { status: 'ok'; command: Command }
  /**
   * A `/review-loop` comment we cannot read: answered with `problem` (Markdown, one sentence), followed by
   * the options when `listsOptions` (malformedReply).
   */
  | { status: 'malformed'; problem: string; listsOptions?: true };

const OPTION_KEYS = ['difficulty', 'rounds', 'fix', 'checkpoint', 'preset'] as const;
type OptionKey = (typeof OPTION_KEYS)[number];
const BARE_WORDS = new Set(['go', 'continue', 'stop', 'status', 'help']);
/** The one form guidance takes: `/review-loop note: <text>`. */
export const NOTE_KEY = 'note';
const VERBS = ['go', 'continue', 'skip', 'stop', 'status', 'dismiss', 'help'] as const;

/**
 * Every option with the values it takes, as the replies and `help` name them; `maxRounds` is the most
 * rounds a start may ask for here (the App's and the repository's budget).
 */
export function optionWords(maxRounds: number): string {
  return [
    '`difficulty:` medium, hard or nightmare',
    maxRounds === 1 ? '`rounds:` 1' : `\`rounds:\` 1 to ${maxRounds}`,
    '`fix:` auto, manual or none',
    '`checkpoint:` on or off',
    '`preset:` code or research',
  ].join('; ');
}

/** The reply to a malformed command: its problem, then the options with this repository's round limit. */
export function malformedReply(
  parsed: Extract<ParsedCommand, { status: 'malformed' }>,
  maxRounds: number,
): string {
  const options = parsed.listsOptions ? `; the options are ${optionWords(maxRounds)}` : '';
  return `\`${COMMAND}\`: ${parsed.problem}${options}.`;
}

/**
 * The answer to `/review-loop help`: every command and option, as docs/app.md § Commands lists them, with
 * the round limit this repository's budget sets.
 */
export function helpText(maxRounds: number): string {
  return [
    '**`/review-loop` commands**, read from the first line of a pull-request comment:',
    '',
    '| command | what it does |',
    '| --- | --- |',
    "| `/review-loop` | starts a loop with this repository's settings |",
    `| \`/review-loop rounds: ${Math.min(3, maxRounds)} fix: manual\` | starts one with options (below) |`,
    '| `/review-loop go` | at a checkpoint: make the suggested fixes |',
    '| `/review-loop skip 1,3` | at a checkpoint: fix all but weaknesses 1 and 3 |',
    '| `/review-loop continue` | runs the next round (after a manual fix, a restart or a failure) |',
    '| `/review-loop stop` | ends the loop |',
    '| `/review-loop status` | says where the loop is |',
    '| `/review-loop note: <text>` | a note for the next fix (the rest of the comment comes with it); at a checkpoint, the answer |',
    '| `/review-loop dismiss 2 by design` | weakness 2 of the last review is not raised again (the reason is kept) |',
    '| `/review-loop help` | this list |',
    '',
    `Options of a start: ${optionWords(maxRounds)}.`,
  ].join('\n');
}

function isOptionKey(word: string): word is OptionKey {
  return (OPTION_KEYS as readonly string[]).includes(word);
}

function oneOf<T extends string>(value: string, allowed: readonly T[]): value is T {
  return (allowed as readonly string[]).includes(value);
}

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

function malformed(problem: string, listsOptions = false): ParsedCommand {
  return listsOptions ? { status: 'malformed', problem, listsOptions } : { status: 'malformed', problem };
}

/**
 * An option written without its colon (`rounds 3`, `rounds=3`), wherever it stands on the line: one
 * answer, with the form to write. Undefined when `token` is no option's name.
 */
function missingColon(token: string, next: string | undefined): ParsedCommand | undefined {
  const match = /^([a-z_-]+)=?(.*)$/i.exec(token);
  const key = (match?.[1] ?? '').toLowerCase();
  if (!isOptionKey(key)) return undefined;
  const value = match?.[2] || next || '…';
  return malformed(`options take a colon, e.g. ${code(`${key}: ${value}`)}`, true);
}

/** `key: value` pairs; every token must be one, for a known key, at most once. */
function parseOptions(text: string): ParsedCommand {
  const options: StartOptions = {};
  const seen = new Set<string>();
  const pair = /^([A-Za-z_-]+)\s*:\s*(\S*)\s*/;
  let rest = text.trim();
  while (rest !== '') {
    const match = pair.exec(rest);
    if (!match) {
      const [token = rest, next] = rest.split(/\s+/);
      return (
        missingColon(token, next) ?? malformed(`expected \`key: value\` options, found ${code(token)}`, true)
      );
    }
    const key = (match[1] ?? '').toLowerCase();
    const value = (match[2] ?? '').toLowerCase().replace(/,$/, '');
    rest = rest.slice(match[0].length);
    if (!isOptionKey(key)) return malformed(`${code(key)} is not an option`, true);
    if (seen.has(key)) return malformed(`option ${code(key)} is given twice`);
    seen.add(key);
    if (value === '') return malformed(`option ${code(key)} has no value`);
    switch (key) {
      case 'difficulty':
        if (!oneOf(value, DIFFICULTIES)) {
          return malformed(`\`difficulty\` must be ${DIFFICULTIES.join(', ')}; got ${code(value)}`);
        }
        options.difficulty = value;
        break;
      case 'rounds': {
        // The upper bound is the repository's budget, which a start checks (config.ts applyStartOptions).
        const rounds = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
        if (!Number.isInteger(rounds) || rounds < 1) {
          return malformed(`\`rounds\` must be a whole number of at least 1; got ${code(value)}`, true);
        }
        options.rounds = rounds;
        break;
      }
      case 'fix':
        if (!oneOf(value, FIX_MODES)) {
          return malformed(`\`fix\` must be ${FIX_MODES.join(', ')}; got ${code(value)}`);
        }
        options.fix = value;
        break;
      case 'checkpoint':
        if (value !== 'on' && value !== 'off') {
          return malformed(`\`checkpoint\` must be on or off; got ${code(value)}`);
        }
        options.checkpoint = value === 'on';
        break;
      case 'preset':
        if (!oneOf(value, PRESETS))
          return malformed(`\`preset\` must be ${PRESETS.join(' or ')}; got ${code(value)}`);
        options.preset = value;
        break;
    }
  }
  return { status: 'ok', command: { kind: 'start', options } };
}

/** `skip 1,3` / `skip 1 3`: the weakness numbers of the last review to leave out of the fix. */
function parseSkip(args: string): ParsedCommand {
  const parts = args.split(/[\s,]+/).filter((part) => part !== '');
  if (parts.length === 0)
    return malformed('`skip` needs the numbers of the weaknesses to skip, e.g. `skip 1,3`');
  const items: number[] = [];
  for (const part of parts) {
    if (!/^\d+$/.test(part) || Number(part) < 1) {
      return malformed(`\`skip\` takes weakness numbers (1, 2, …); got ${code(part)}`);
    }
    if (!items.includes(Number(part))) items.push(Number(part));
  }
  return { status: 'ok', command: { kind: 'skip', items: items.sort((a, b) => a - b) } };
}

/** `dismiss 2 not worth it here`: one weakness number of the last review, then the reason (optional). */
function parseDismiss(args: string, rest: string): ParsedCommand {
  const match = /^\s*(\S+)\s*([\s\S]*)$/.exec(args);
  const number = match?.[1] ?? '';
  if (!/^\d+$/.test(number) || Number(number) < 1) {
    return malformed(
      number === ''
        ? '`dismiss` needs the number of a weakness of the last review, e.g. `dismiss 2 by design`'
        : `\`dismiss\` takes one weakness number (1, 2, …); got ${code(number)}`,
    );
  }
  const reason = [match?.[2]?.trim() ?? '', rest.trim()].filter((part) => part !== '').join('\n');
  if (reason.length > MAX_GUIDANCE_CHARS) {
    return malformed(
      `the reason is limited to ${MAX_GUIDANCE_CHARS} characters; this one has ${reason.length}`,
    );
  }
  return { status: 'ok', command: { kind: 'dismiss', item: Number(number), reason } };
}

/** The first line of a body, without a trailing carriage return. */
function splitFirstLine(body: string): { first: string; rest: string } {
  const newline = body.indexOf('\n');
  const first = newline === -1 ? body : body.slice(0, newline);
  return { first: first.replace(/\r$/, ''), rest: newline === -1 ? '' : body.slice(newline + 1) };
}

export function parseCommand(body: string | null | undefined): ParsedCommand {
  const { first, rest } = splitFirstLine(body ?? '');
  const line = first.trim();
  const word = line.slice(0, COMMAND.length).toLowerCase();
  const after = line.charAt(COMMAND.length);
  if (word !== COMMAND || (after !== '' && after !== ' ' && after !== '\t')) return { status: 'none' };
  const args = line.slice(COMMAND.length).trim();
  if (args === '') return { status: 'ok', command: { kind: 'start', options: {} } };

  const [head = '', ...others] = args.split(/\s+/);
  const verb = head.toLowerCase();
  if (BARE_WORDS.has(verb)) {
    if (others.length > 0) return malformed(`${code(verb)} takes no arguments`);
    return { status: 'ok', command: { kind: verb as 'go' | 'continue' | 'stop' | 'status' | 'help' } };
  }
  if (verb === 'skip') return parseSkip(args.slice(head.length));
  if (verb === 'dismiss') return parseDismiss(args.slice(head.length), rest);
  const key = /^([A-Za-z_-]+)\s*:/.exec(args)?.[1]?.toLowerCase();
  if (key === NOTE_KEY) return parseNote(args.slice(args.indexOf(':') + 1), rest);
  // Any other `key:` makes the line an option list: an unknown key is answered with the valid options.
  if (key !== undefined) return parseOptions(args);
  const colonless = missingColon(head, others[0]);
  if (colonless) return colonless;
  return malformed(
    `${code(head)} is not a command; the commands are ${VERBS.map((v) => code(v)).join(', ')} and start options (\`/review-loop help\` lists them). A note for the next fix is written \`/review-loop note: <text>\``,
  );
}

/** `note: <text>` (and the rest of the comment): guidance for the next fix, or a checkpoint's answer. */
function parseNote(inline: string, rest: string): ParsedCommand {
  const text = [inline.trim(), rest.trim()].filter((part) => part !== '').join('\n');
  if (text === '')
    return malformed('`note:` needs the text of the note, e.g. `/review-loop note: keep the public API`');
  if (text.length > MAX_GUIDANCE_CHARS) {
    return malformed(`a note is limited to ${MAX_GUIDANCE_CHARS} characters; this one has ${text.length}`);
  }
  return { status: 'ok', command: { kind: 'guidance', text } };
}
