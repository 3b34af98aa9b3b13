import { SkillclimbError } from '../core/errors.js';

/** Bad usage the parser cannot see (conflicting settings, a model id without its key): exit 2. */
export class UsageError extends SkillclimbError {
  readonly kind = 'usage';
  override name = 'UsageError';
}

/** The CLI's exit codes. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE_OR_HALT = 2;
