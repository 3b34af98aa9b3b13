// CONTRACT STUB — owned by the foundation helper; signatures are shared with the orchestrator (run.ts).
import type { IterateOptions, IteratePorts } from './ports.js';

/** The seed's embedded skip-list: side-effect-driven skills whose output is not text-gradable. */
export const EMBEDDED_SKIP_LIST: readonly string[] = [
  'verify',
  'run',
  'loop',
  'schedule',
  'update-config',
  'fewer-permission-prompts',
  'claude-oauth-auth',
];

/** A pre-flight halt (autonomy contract clause 1). The CLI prints the message and exits 2. */
export class PreflightHalt extends Error {
  override name = 'PreflightHalt';
}

export interface SkipList {
  /** Union of embedded + extension. */
  all: ReadonlySet<string>;
  sourceOf(skill: string): 'embedded' | '--skip-list extension' | undefined;
}

export interface Lock {
  path: string;
  /** Idempotent; also runs on process exit / SIGINT / SIGTERM once acquired. */
  release(): Promise<void>;
}

export interface PreflightResult {
  skipList: SkipList;
  /** The explicit queue from --skill / --queue (validated), or undefined for auto-discovery. */
  explicit: string[] | undefined;
  /** Taken only when `takeLock` is true (never for --dry-run). */
  lock: Lock | undefined;
}

export function mergeSkipList(_extension: readonly string[]): SkipList {
  throw new Error('not implemented');
}

export async function runPreflight(
  _options: IterateOptions,
  _ports: Pick<IteratePorts, 'log' | 'now'>,
  _takeLock: boolean,
): Promise<PreflightResult> {
  throw new Error('not implemented');
}
