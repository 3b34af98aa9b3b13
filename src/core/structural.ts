// CONTRACT STUB — owned by the structural-metrics helper.
import type { StructuralResult } from './score-types.js';

export interface StructuralContext {
  /** Absolute path of the folder holding SKILL.md (links and [[refs]] resolve from here). */
  skillDir: string;
  /** From evals/required_sections.json; undefined → the defaults (Steps, Constraints, Limitations). */
  requiredSections: string[] | undefined;
  /** Injected so this module stays free of I/O. */
  exists(absolutePath: string): boolean;
}

export function scoreStructure(_text: string, _ctx: StructuralContext): StructuralResult {
  throw new Error('not implemented');
}
