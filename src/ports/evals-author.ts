/**
 * The model port of `skillclimb evals init` (docs/how-it-works.md § The queue): one call that writes a
 * skill's eval files. The provider adapter is src/llm/evals-author.ts; tests use HTTP-level replies.
 */
import type { AuthoredAnswer } from '../core/iterate/evals-authoring.js';
import type { EvalsAuthorPromptInput } from '../core/iterate/evals-author-prompt.js';
import type { ModelReply } from './models.js';

export interface EvalsAuthor {
  /** `provider:model`, for the messages and the pull request. */
  readonly modelId: string;
  /**
   * Resolves with an answer of the right shape (its content is checked by the caller), or rejects with
   * ModelOutputError when the answer does not have that shape (the caller may ask again); any other
   * rejection is a model or transport failure.
   */
  author(
    input: EvalsAuthorPromptInput,
    signal: AbortSignal,
  ): Promise<ModelReply<AuthoredAnswer> & { raw: string }>;
}
