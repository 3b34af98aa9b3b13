// CONTRACT STUB — owned by the structural-metrics helper.
import type { SkillModels } from './port.js';

export function createOfflineModels(): SkillModels {
  throw new Error('not implemented');
}
