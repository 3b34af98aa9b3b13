/**
 * The review loop's two models as the App runs them (docs/how-it-works.md § Models and providers): the
 * loop's settings name them (`.github/review-loop.yml` over `REVIEW_LOOP_REVIEWER_MODEL` /
 * `REVIEW_LOOP_EXECUTOR_MODEL`); a role left unset is chosen by the keys in the App's environment, as
 * the CLI does. Keys come from the App's environment only. Whatever is missing is one sentence for the
 * pull request — the sticky comment and the check run say it — never a crash.
 */
import { ReviewModelError, resolveReviewModels } from '../config/review-selection.js';
import { buildRoleModel, callSettings, type ModelFactoryOptions } from '../llm/factory.js';
import { parseModelId, type ModelId } from '../llm/model-id.js';
import { createReviewModels } from '../llm/review-models.js';
import type { ReviewModels } from '../ports/review.js';
import type { LoopSettings } from '../github/review/loop-state.js';
import { SkillclimbError, messageOf } from '../core/errors.js';
import { DEFAULT_MODEL_PROVIDERS } from '../core/providers.js';
import { inWords } from '../core/text/words.js';

/** Why a loop could not start its models, as a sentence for the person reading the pull request. */
export class LoopSetupError extends SkillclimbError {
  readonly kind = 'config';
  constructor(message: string) {
    super(message);
    this.name = 'LoopSetupError';
  }
}

/** `` `ANTHROPIC_API_KEY` and `OPENAI_API_KEY` ``: the keys of the defaults' reviewer and executor. */
const REVIEW_KEYS = inWords(
  DEFAULT_MODEL_PROVIDERS.slice(0, 2).map((p) => `\`${p.key.variable}\``),
  'and',
);

const WHERE =
  'set it in the App’s environment (`REVIEW_LOOP_REVIEWER_MODEL`, `REVIEW_LOOP_EXECUTOR_MODEL`) or in ' +
  '`.github/review-loop.yml` (`reviewer_model`, `executor_model`)';

function realModel(role: 'reviewer' | 'executor', raw: string): Exclude<ModelId, { provider: 'offline' }> {
  const id = parseModelId(raw);
  if (id.provider === 'offline') {
    throw new LoopSetupError(`The ${role} model is \`offline\`, which has no ${role}: ${WHERE}.`);
  }
  return id;
}

export function buildLoopModels(
  settings: Pick<LoopSettings, 'reviewerModel' | 'executorModel'>,
  env: NodeJS.ProcessEnv,
  factory: ModelFactoryOptions = {},
  /** The body of the repository's reviewer skill; undefined: the built-in instructions. */
  reviewerInstructions?: string,
): ReviewModels {
  let choice;
  try {
    choice = resolveReviewModels({
      flags: { reviewerModel: settings.reviewerModel, executorModel: settings.executorModel },
      config: {},
      env,
    });
  } catch (error) {
    if (!(error instanceof ReviewModelError)) throw error;
    throw new LoopSetupError(
      `The App has no model key: its environment needs ${REVIEW_KEYS} ` +
        '(one per model family, so that a reviewer can acquit), or models chosen explicitly — ' +
        `${WHERE}.`,
    );
  }
  try {
    const reviewer = buildRoleModel('reviewer', realModel('reviewer', choice.reviewer), env, factory);
    const executor = buildRoleModel('executor', realModel('executor', choice.executor), env, factory);
    return createReviewModels({
      reviewer,
      executor,
      settings: callSettings(factory),
      reviewerInstructions,
    });
  } catch (error) {
    if (error instanceof LoopSetupError) throw error;
    // "reviewer model openai:gpt-5 needs OPENAI_API_KEY": the key belongs in the App's environment.
    const detail = messageOf(error);
    throw new LoopSetupError(`The review loop cannot call its models: ${detail} in the App’s environment.`);
  }
}
