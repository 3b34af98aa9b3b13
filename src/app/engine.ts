/**
 * Where the review-loop engine is plugged into the App: the one function `npm start` calls to get its
 * `LoopRunner`. Until the engine is wired here, every loop ends with a plain "no engine" failure on its
 * check run and sticky comment (never a silent success).
 */
import type { AppEnvSettings } from './config.js';
import type { LoopRunner } from './loop-runner.js';
import { createUnwiredRunner } from './loop-runner.js';

export function createLoopRunner(_settings: AppEnvSettings, _env: NodeJS.ProcessEnv): LoopRunner {
  return createUnwiredRunner();
}
