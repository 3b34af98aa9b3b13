import { SkillclimbError } from './errors.js';

/** A pre-flight halt (docs/how-it-works.md § Pre-flight). The CLI prints the message and exits 2. */
export class PreflightHalt extends SkillclimbError {
  readonly kind = 'halt';
  override name = 'PreflightHalt';
}
