/** The review-loop engine's public surface: what the CLI and the App import. */
export { runReviewLoop } from './run.js';
export {
  DEFAULT_VERIFIER_LIMITS,
  type ResumeInput,
  type ReviewOptions,
  type ReviewPorts,
} from './options.js';
export { createReadOnlyTools } from './verifier-tools.js';
export { progressLine } from './document.js';
export type {
  Checkpoint,
  CheckpointQuestion,
  CommitResult,
  FileRead,
  FolderEntry,
  ReadOnlyTools,
  ReviewEvent,
  ReviewEvents,
  ReviewModels,
  ReviewStore,
  ReviewTarget,
  SearchHit,
} from '../ports/review.js';
export type {
  ReviewOutcome,
  ReviewStatus,
  RoundReport,
  DebateRecord,
  FixReport,
} from '../core/review-outcome.js';
export type { CheckpointAnswer } from '../core/review-checkpoint.js';
export { parseCheckpointAnswer } from '../core/review-checkpoint.js';
