/**
 * The review loop's models (docs/how-it-works.md § Models and providers): `--reviewer-model` /
 * `--executor-model`, else `skillclimb.config.json` `models.reviewer` / `models.executor`, else chosen by
 * the keys present, in the order of src/core/providers.ts — both keys: reviewer Anthropic, executor OpenAI
 * (two families, so the run can acquit); one key: both roles on that provider, said up front because such a
 * run can never acquit; no key: an error naming the variables, since there is no offline reviewer.
 */
import { modelFamily } from '../core/families.js';
import { DEFAULT_MODEL_PROVIDERS, keyedDefaultProviders } from '../core/providers.js';
import { inWords } from '../core/text/words.js';
import { parseModelId } from '../llm/model-id.js';
import type { SkillclimbConfig } from './config.js';
import { SkillclimbError } from '../core/errors.js';

export interface ReviewModelFlags {
  reviewerModel?: string | undefined;
  executorModel?: string | undefined;
}

export type ReviewModelSource = 'flag' | 'config' | 'default';

export interface ReviewModelChoice {
  reviewer: string;
  executor: string;
  sources: { reviewer: ReviewModelSource; executor: ReviewModelSource };
  /** Said before the run starts, when the defaults could only pick one family. */
  warning: string | undefined;
}

/** No key for a role left to the defaults, or an `offline` role: a configuration error (exit 2). */
export class ReviewModelError extends SkillclimbError {
  readonly kind = 'config';
  override name = 'ReviewModelError';
}

/** `ANTHROPIC_API_KEY (reviewer, Anthropic) and OPENAI_API_KEY (executor, OpenAI)`: the defaults' first two. */
const KEYS_BY_ROLE = inWords(
  DEFAULT_MODEL_PROVIDERS.slice(0, 2).map(
    (p, index) => `${p.key.variable} (${index === 0 ? 'reviewer' : 'executor'}, ${p.name})`,
  ),
  'and',
);

export const NO_KEY_MESSAGE = `no model key: set ${KEYS_BY_ROLE}, or pass --reviewer-model and --executor-model — there is no offline reviewer`;

function checkId(role: 'reviewer' | 'executor', id: string, source: ReviewModelSource): string {
  const parsed = parseModelId(id);
  if (parsed.provider === 'offline') {
    const where = source === 'flag' ? `--${role}-model` : `skillclimb.config.json: models.${role}`;
    throw new ReviewModelError(`${where}: offline has no ${role}; the review loop needs a real model`);
  }
  return parsed.id;
}

export function resolveReviewModels(input: {
  flags: ReviewModelFlags;
  config: SkillclimbConfig;
  env: NodeJS.ProcessEnv;
}): ReviewModelChoice {
  const { flags, config, env } = input;
  const pick = (
    flag: string | undefined,
    configured: string | undefined,
  ): [string, ReviewModelSource] | undefined =>
    flag !== undefined ? [flag, 'flag'] : configured !== undefined ? [configured, 'config'] : undefined;
  const chosenReviewer = pick(flags.reviewerModel, config.models?.reviewer);
  const chosenExecutor = pick(flags.executorModel, config.models?.executor);

  const keyed = keyedDefaultProviders(env);
  const candidates = keyed.map((p) => p.defaultModel);
  // A role left to the defaults takes a model of another family than the other role's, when a key allows.
  const fallback = (other: string | undefined): string => {
    if (candidates.length === 0) throw new ReviewModelError(NO_KEY_MESSAGE);
    const otherFamily = other === undefined ? undefined : modelFamily(other);
    return candidates.find((c) => modelFamily(c) !== otherFamily) ?? candidates[0]!;
  };
  let reviewer: [string, ReviewModelSource];
  let executor: [string, ReviewModelSource];
  if (chosenReviewer) {
    reviewer = [checkId('reviewer', chosenReviewer[0], chosenReviewer[1]), chosenReviewer[1]];
    executor = chosenExecutor
      ? [checkId('executor', chosenExecutor[0], chosenExecutor[1]), chosenExecutor[1]]
      : [fallback(reviewer[0]), 'default'];
  } else if (chosenExecutor) {
    executor = [checkId('executor', chosenExecutor[0], chosenExecutor[1]), chosenExecutor[1]];
    reviewer = [fallback(executor[0]), 'default'];
  } else {
    reviewer = [fallback(undefined), 'default'];
    executor = [fallback(reviewer[0]), 'default'];
  }
  let warning: string | undefined;
  const defaulted = reviewer[1] === 'default' || executor[1] === 'default';
  if (defaulted && keyed.length === 1 && modelFamily(reviewer[0]) === modelFamily(executor[0])) {
    const only = keyed[0]!.key.variable;
    const missing = inWords(
      DEFAULT_MODEL_PROVIDERS.map((p) => p.key.variable).filter((variable) => variable !== only),
    );
    warning =
      `only ${only} is set: reviewer ${reviewer[0]} and executor ${executor[0]} are the same family, so this run ` +
      `cannot acquit (set ${missing} too, or choose --reviewer-model / --executor-model of two families)`;
  }
  return {
    reviewer: reviewer[0],
    executor: executor[0],
    sources: { reviewer: reviewer[1], executor: executor[1] },
    warning,
  };
}
