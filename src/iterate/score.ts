// CONTRACT STUB — owned by the scoring helper.
import type { SkillEvals } from '../core/evals.js';
import type {
  AbsoluteResult,
  ScoreMode,
  ScoreStatus,
  ScoreWeights,
  StructuralResult,
} from '../core/score-types.js';
import type { SkillModels, Usage } from '../llm/port.js';

/** Renders keyed by (render model, SKILL.md content, scenario id). Lives for one run. */
export class RenderCache {
  private readonly entries = new Map<string, string>();
  get(key: string): string | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: string): void {
    this.entries.set(key, value);
  }
  get size(): number {
    return this.entries.size;
  }
}

export interface ScoreRequest {
  skillName: string;
  /** Absolute path of the skill folder (SKILL.md's directory). */
  skillDir: string;
  skillMd: string;
  evals: SkillEvals;
  models: SkillModels;
  mode: ScoreMode;
  weights?: ScoreWeights;
  /** 1 normally; 3 for the saturation handler (same renders, graded 3 times, majority vote). */
  trials: number;
  concurrency: number;
  signal: AbortSignal;
  cache: RenderCache;
}

export interface SkillScore {
  status: ScoreStatus;
  /** The score for the requested mode; null unless status is 'ok'. */
  score: number | null;
  /** The mode actually used (composite falls back to structural with the offline provider). */
  mode: ScoreMode;
  structural: StructuralResult;
  /** null in structural mode, with the offline provider, or when status is not 'ok'. */
  absolute: AbsoluteResult | null;
  /** AMBIGUOUS reason or the error message when status is not 'ok'. */
  detail: string | undefined;
  usage: Usage;
  /** scenario id → render text (for the editor's failing-render excerpt). */
  renders: Map<string, string>;
  trials: number;
}

export async function scoreSkill(_request: ScoreRequest): Promise<SkillScore> {
  throw new Error('not implemented');
}
