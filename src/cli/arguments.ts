/** Option-value parsers for commander: a bad value becomes an error that names the flag (exit 2). */
import { InvalidArgumentError } from 'commander';
import { DurationError, parseDuration } from '../core/duration.js';
import { EVALS_FORMATS, type EvalsFormat } from '../core/iterate/evals.js';
import { isValidSkillName, skillsGlobProblem } from '../core/iterate/skill-layout.js';
import { parseStructuredOutputFlag } from '../config/config.js';
import type { StructuredOutputSetting } from '../llm/structured-output.js';
import { messageOf } from '../core/errors.js';

/** `--structured-output <mode>` (iterate, score, doctor): auto, json_schema, json_object or text. */
export function structuredOutputArgument(value: string): StructuredOutputSetting {
  try {
    return parseStructuredOutputFlag(value);
  } catch (err) {
    throw new InvalidArgumentError(messageOf(err).replace(/^--structured-output: /, ''));
  }
}

/** The help text of `--structured-output`, the same on every command that has it. */
export const STRUCTURED_OUTPUT_HELP =
  'OpenAI-compatible servers: auto (json_schema, falling back to json_object, then text) or one forced mode';

/** Validates a duration (`1h`, `30m`, `90s`, `1h30m`) and keeps the text as typed, for the plan. */
export function durationArgument(value: string): string {
  try {
    parseDuration(value);
  } catch (err) {
    if (err instanceof DurationError) throw new InvalidArgumentError(err.message);
    throw err;
  }
  return value.trim();
}

export function positiveIntegerArgument(value: string): number {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) <= 0 || !Number.isSafeInteger(Number(trimmed))) {
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  }
  return Number(trimmed);
}

export function positiveNumberArgument(value: string): number {
  const trimmed = value.trim();
  const n = Number(trimmed);
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed) || !(n > 0)) {
    throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  }
  return n;
}

/** `a,b` (repeatable): skill names to add to the embedded skip-list. */
export function skipListArgument(value: string, previous: string[] | undefined): string[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = names.find((n) => !isValidSkillName(n));
  if (bad !== undefined) throw new InvalidArgumentError(`"${bad}" is not a skill name`);
  return [...(previous ?? []), ...names];
}

/** `--skills a/*,b/*` (repeatable): globs of skill folders relative to the project. */
export function skillsArgument(value: string, previous: string[] | undefined): string[] {
  const globs = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (globs.length === 0)
    throw new InvalidArgumentError('expected globs of skill folders such as "skills/*"');
  for (const glob of globs) {
    const problem = skillsGlobProblem(glob);
    if (problem !== undefined) throw new InvalidArgumentError(problem);
  }
  return [...(previous ?? []), ...globs];
}

/** `--min-gain <n>`: a composite-score gain between 0 and 1. */
export function gainArgument(value: string): number {
  const trimmed = value.trim();
  const n = Number(trimmed);
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed) || !(n >= 0 && n <= 1)) {
    throw new InvalidArgumentError(`expected a number from 0 to 1, got "${value}"`);
  }
  return n;
}

/** `--margin <n>`: standard errors of the difference a gain must clear, from 0 to 10. */
export function marginArgument(value: string): number {
  const trimmed = value.trim();
  const n = Number(trimmed);
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed) || !(n >= 0 && n <= 10)) {
    throw new InvalidArgumentError(`expected a number from 0 to 10, got "${value}"`);
  }
  return n;
}

/** `--trials <n>`: independent draws per measurement, from 1 to 10. */
export function trialsArgument(value: string): number {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > 10) {
    throw new InvalidArgumentError(`expected a whole number from 1 to 10, got "${value}"`);
  }
  return Number(trimmed);
}

/** `--holdouts <n>`: a whole number from 0 to 10. */
export function holdoutsArgument(value: string): number {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) > 10) {
    throw new InvalidArgumentError(`expected a whole number from 0 to 10, got "${value}"`);
  }
  return Number(trimmed);
}

/** A repeatable text flag (`--required-section`, `--banned-phrase`): the values in order, trimmed. */
export function repeatableTextArgument(value: string, previous: string[] | undefined): string[] {
  const text = value.trim();
  if (text === '') throw new InvalidArgumentError('expected a non-empty value');
  return [...(previous ?? []), text];
}

/** `--format`: the shape of new eval files (docs/cli.md § skillclimb evals init). */
export function evalsFormatArgument(value: string): EvalsFormat {
  if ((EVALS_FORMATS as readonly string[]).includes(value)) return value as EvalsFormat;
  throw new InvalidArgumentError(`expected ${EVALS_FORMATS.join(' or ')}, got "${value}"`);
}
