/**
 * The model port: the one interface the skill-iterate engine calls for its three roles. Implementations
 * live in src/llm (offline, the scripted double, the real providers).
 */
import type { Scenario } from '../core/iterate/evals.js';
import type { EditProposal, GraderAnswer } from '../core/model-answers.js';
import type { FailedAssertion, PassingPair, StructuralResult } from '../core/iterate/score-types.js';
import type { Usage } from '../core/usage.js';
import type {
  SilencingProbeAnswer,
  SilencingProbePromptInput,
} from '../core/iterate/silencing-probe-prompt.js';

export interface ModelReply<T> {
  value: T;
  usage: Usage;
}

export type EditorMode = 'targeted' | 'simplification';

export interface EditorInput {
  skillName: string;
  skillMd: string;
  mode: EditorMode;
  /** 3+ consecutive reverts: invite a larger restructure (targeted) or a more aggressive simplification. */
  radical: boolean;
  /** failed_assertions[0] in targeted mode. */
  topFailure: FailedAssertion | undefined;
  /** failed_assertions[1:] (shown compact). */
  otherFailures: FailedAssertion[];
  passingPairs: PassingPair[];
  /** An excerpt of the render that failed topFailure, when there is one. */
  failingRenderExcerpt: string | undefined;
  /** Descriptions of edits already reverted for this skill in this run, so they are not proposed again. */
  revertedDescriptions: string[];
  /** The latest structural metrics (the offline editor aims at the weakest one). */
  structural: StructuralResult;
  /** Every assertion's statement by id, so the passing pairs can name each statement once. */
  statements?: Readonly<Record<string, string>> | undefined;
}

export interface RenderInput {
  skillName: string;
  skillMd: string;
  scenario: Scenario;
}

export interface GraderInput {
  skillName: string;
  scenario: Scenario;
  /** The render being graded: untrusted text, quoted as data in the prompt. */
  output: string;
  /** Only the assertions that need a model (not vacuous, no `check`). */
  assertions: Array<{ id: number; statement: string; category: string }>;
  trial: number;
}

/** The silencing probe's request: the prompt's input (core/iterate/silencing-probe-prompt.ts), and the skill. */
export interface SilencingProbeInput extends SilencingProbePromptInput {
  skillName: string;
}

/**
 * The one interface the engine calls for its three roles. Implementations: `offline` (src/llm/offline.ts),
 * the scripted double (src/llm/scripted.ts), and the real providers (src/llm/skill-models.ts).
 *
 * Contract:
 * - every call honours `signal` (an abort rejects promptly with the signal's reason);
 * - `propose` / `grade` resolve with a value already validated by the schemas above, or reject with
 *   `ModelOutputError` when the answer cannot be parsed into that shape (the engine decides revert vs crash);
 * - any other rejection is a model/transport failure (a crash: docs/how-it-works.md § The hill-climb loop).
 */
export interface SkillModels {
  /** One line for logs, e.g. "offline (structural scoring only)" or "editor=anthropic:… render=… grader=…". */
  readonly label: string;
  /** True for `offline`: no render, no grade; scoring falls back to structural-only. */
  readonly structuralOnly: boolean;
  /** Part of the render-cache key. */
  readonly renderModelId: string;
  /** The grader's `provider:model`, for reports that name it (benchmark.json); absent in test doubles. */
  readonly graderModelId?: string;
  /**
   * The servers the render and grader roles call, each its base URL without credentials: part of the keys
   * of the records kept between nights (docs/how-it-works.md § Baseline). Absent offline and in test doubles.
   */
  readonly renderEndpoint?: string | undefined;
  readonly graderEndpoint?: string | undefined;
  propose(input: EditorInput, signal: AbortSignal): Promise<ModelReply<EditProposal>>;
  render(input: RenderInput, signal: AbortSignal): Promise<ModelReply<string>>;
  grade(input: GraderInput, signal: AbortSignal): Promise<ModelReply<GraderAnswer>>;
  /**
   * The silencing probe (docs/how-it-works.md § The nightly engine improves the reviewer), on the editor's
   * model: hunks of real defects an edit of a reviewer skill could stop a reviewer from reporting. Absent
   * (offline, test doubles): no probe is written.
   */
  probeSilenced?(input: SilencingProbeInput, signal: AbortSignal): Promise<ModelReply<SilencingProbeAnswer>>;
}
