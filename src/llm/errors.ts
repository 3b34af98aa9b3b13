/** Provider-side failures, worded for the person reading a nightly log: which role, which model, what happened. */
import { ModelOutputError } from '../core/model-answers.js';
import type { Usage } from '../core/usage.js';
import { SkillclimbError } from '../core/errors.js';

/** The skill-iterate engine's three roles. */
export type SkillRole = 'editor' | 'render' | 'grader';
/** The review loop's two roles (docs/how-it-works.md § Models and providers). */
export type ReviewRole = 'reviewer' | 'executor';
/** `skillclimb evals init`'s role: the model that writes eval files. */
export type AuthorRole = 'author';
export type Role = SkillRole | ReviewRole | AuthorRole;

export type ModelCallFailure = 'http' | 'network' | 'timeout';

/** A model call that produced no answer: HTTP error after retries, unreachable endpoint, or timeout. */
export class ModelCallError extends SkillclimbError {
  readonly kind = 'model';
  constructor(
    readonly role: Role,
    readonly modelId: string,
    readonly failure: ModelCallFailure,
    detail: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${role} model ${modelId}: ${detail}`, options);
    this.name = 'ModelCallError';
  }
}

/** The port's ModelOutputError, carrying the usage of the call that produced the unusable answer. */
export class ProviderOutputError extends ModelOutputError {
  constructor(role: Role, message: string, raw: string | undefined, usage: Usage | undefined) {
    super(role, message, raw, usage);
  }
}
