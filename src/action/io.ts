/** What the Action's steps share: the runner's I/O, what a step returns, and the engine it drives. */
import type { Logger } from '../ports/logger.js';
import { runIterate } from '../iterate/run.js';
import type { ActionOutputs } from './outputs.js';

/** What the pipeline needs from the runner (the Actions toolkit in production, recorders in tests). */
export interface ActionIo {
  log: Logger;
  startGroup(name: string): void;
  endGroup(): void;
  writeSummary(markdown: string): Promise<void>;
  now(): Date;
}

/** The engine the nightly step drives; tests inject one that throws or records. */
export interface PipelineEngine {
  runIterate: typeof runIterate;
}

export const ENGINE: PipelineEngine = { runIterate };

export interface PipelineResult {
  outputs: ActionOutputs;
  /** Set when the job should fail (after the summary and outputs were written). */
  failure: string | undefined;
}
