/**
 * The review loop's test frame: a real git repository with a branch under review, the real provider layer
 * answered by nock in the Anthropic Messages and OpenAI Responses wire formats, and the local store and
 * target — so a test drives the same code a `skillclimb review` run does.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { createLocalReviewStore } from '../../src/adapters/local/review-store.js';
import { createLocalReviewTarget, resolveBaseRef } from '../../src/adapters/local/review-target.js';
import type { CheckpointAnswer } from '../../src/core/review/checkpoint.js';
import { buildRoleModel, callSettings, type ModelFactoryOptions } from '../../src/llm/factory.js';
import { parseModelId, type ModelId } from '../../src/llm/model-id.js';
import { createReviewModels } from '../../src/llm/review-models.js';
import type { Checkpoint, ReviewEvent } from '../../src/ports/review.js';
import type { ReviewOptions, ReviewPorts } from '../../src/review/options.js';
import { anthropicMessage } from './model-replies.js';
import { recordingLogger, type RecordingLogger } from './skill-project.js';
import { tempDirs } from './temp-dirs.js';

export const ANTHROPIC = 'https://api.anthropic.com';
export const OPENAI = 'https://api.openai.com';
export const KEYS = { ANTHROPIC_API_KEY: 'sk-ant-review-test-key', OPENAI_API_KEY: 'sk-openai-review-test' };

const temp = tempDirs('skillclimb-review-', { resolveLinks: true });
export const removeReviewDirs = temp.removeAll;

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
}

export const README =
  '# calc\n\nClaims: `add(a, b)` returns the sum of two numbers, and `half(n)` halves n.\n';
export const CALC_BASE = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
export const CALC_BRANCH =
  'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function half(n: number): number {\n  return n / 3;\n}\n';

/** `main` with README and src/calc.ts; branch `feature` adds `half()` (with a bug) in one commit. */
export async function makeReviewRepo(): Promise<string> {
  const dir = await temp.make();
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'commit.gpgsign', 'false');
  await mkdir(path.join(dir, 'src'));
  await writeFile(path.join(dir, 'README.md'), README);
  await writeFile(path.join(dir, 'src/calc.ts'), CALC_BASE);
  await writeFile(path.join(dir, 'src/other.ts'), 'export const other = 1;\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  git(dir, 'checkout', '-q', '-b', 'feature');
  await writeFile(path.join(dir, 'src/calc.ts'), CALC_BRANCH);
  git(dir, 'commit', '-q', '-am', 'add half()');
  return dir;
}

export function head(dir: string): string {
  return git(dir, 'rev-parse', 'HEAD').trim();
}

export interface WeaknessSpec {
  title: string;
  minimum_fix?: string;
  severity?: string;
  effort?: string;
  file?: string | null;
  line?: number | null;
  detail?: string;
}

/** A reviewer answer in the JSON shape the review schema asks for. */
export function reviewAnswer(
  score: number,
  verdict: string,
  weaknesses: WeaknessSpec[] = [],
  memory = 'No suspicions left.',
) {
  return {
    score,
    verdict,
    summary: `Scored ${score}.`,
    weaknesses: weaknesses.map((w) => ({
      severity: 'major',
      detail: 'See the diff.',
      minimum_fix: `Fix: ${w.title}`,
      effort: 'small',
      file: null,
      line: null,
      ...w,
    })),
    memory_update: memory,
  };
}

/**
 * The finding check's answer (docs/how-it-works.md § Approval under noise): finding n holds when the n-th
 * argument is true.
 */
export function checkAnswer(...holds: boolean[]) {
  return {
    checks: holds.map((h, i) => ({
      finding: i + 1,
      holds: h,
      evidence: h ? 'The cited line does what the finding says.' : 'The cited code does not do that.',
    })),
  };
}

export const HALF_BUG: WeaknessSpec = {
  title: 'half() divides by 3',
  minimum_fix: 'Divide by 2.',
  file: 'src/calc.ts',
  line: 6,
};

export interface Recorded {
  bodies: Array<Record<string, unknown>>;
}

/** One Anthropic Messages answer whose text is `text` (a JSON answer is stringified). */
export function anthropicReply(
  text: unknown,
  recorded?: Recorded,
  usage = { input_tokens: 1500, output_tokens: 300 },
) {
  return nock(ANTHROPIC)
    .post('/v1/messages', (body: Record<string, unknown>) => {
      recorded?.bodies.push(body);
      return true;
    })
    .reply(
      200,
      anthropicMessage(
        [{ type: 'text', text: typeof text === 'string' ? text : JSON.stringify(text) }],
        usage,
      ),
    );
}

/** A Responses API object (POST /v1/responses): a reasoning item, then the message. */
export function openaiResponse(text: string, usage = { input_tokens: 1200, output_tokens: 400 }) {
  return {
    id: 'resp_67ccd2bed1ec8190b14f964abc054267',
    object: 'response',
    created_at: 1741476542,
    status: 'completed',
    model: 'gpt-5-2025-08-07',
    output: [
      { type: 'reasoning', id: 'rs_67ccd3', summary: [] },
      {
        type: 'message',
        id: 'msg_67ccd2bf17f0',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
}

export function openaiReply(value: unknown, recorded?: Recorded) {
  return nock(OPENAI)
    .post('/v1/responses', (body: Record<string, unknown>) => {
      recorded?.bodies.push(body);
      return true;
    })
    .reply(200, openaiResponse(typeof value === 'string' ? value : JSON.stringify(value)));
}

/** The user message of a recorded Anthropic request. */
export function anthropicUserText(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ content: Array<{ type: string; text?: string }> | string }>;
  return messages
    .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((c) => c.text ?? '').join('')))
    .join('\n');
}

export function openaiInputText(body: Record<string, unknown>): string {
  return JSON.stringify(body.input);
}

export interface ReviewHarness {
  dir: string;
  ports: ReviewPorts;
  log: RecordingLogger;
  events: ReviewEvent[];
  options: ReviewOptions;
}

export interface HarnessOptions {
  reviewer?: string;
  executor?: string;
  options?: Partial<ReviewOptions>;
  paths?: string[];
  checkpoint?: Checkpoint;
  hex?: string;
  now?: () => Date;
  allowDirty?: boolean;
  factory?: ModelFactoryOptions;
}

/** Scripted checkpoint answers, in order; `wait` once they run out. */
export function scriptedCheckpoint(answers: CheckpointAnswer[]): Checkpoint & { asked: number } {
  const queue = [...answers];
  const cp = {
    asked: 0,
    async ask() {
      cp.asked++;
      return queue.shift() ?? { kind: 'wait' as const };
    },
  };
  return cp;
}

export async function harness(dir: string, h: HarnessOptions = {}): Promise<ReviewHarness> {
  const env = { ...KEYS };
  const factory: ModelFactoryOptions = {
    retryHooks: { sleep: async () => {}, random: () => 0 },
    retry: { baseDelayMs: 1 },
    ...h.factory,
  };
  const id = (raw: string) => parseModelId(raw) as Exclude<ModelId, { provider: 'offline' }>;
  const models = createReviewModels({
    reviewer: buildRoleModel('reviewer', id(h.reviewer ?? 'anthropic:claude-sonnet-4-5'), env, factory),
    executor: buildRoleModel('executor', id(h.executor ?? 'openai:gpt-5'), env, factory),
    settings: callSettings(factory),
  });
  const log = recordingLogger();
  const events: ReviewEvent[] = [];
  const target = await createLocalReviewTarget({
    repoRoot: dir,
    project: dir,
    paths: h.paths ?? [],
    baseRef: await resolveBaseRef(dir, undefined),
    claimsFile: undefined,
    allowDirty: h.allowDirty ?? false,
  });
  return {
    dir,
    log,
    events,
    options: {
      difficulty: 'medium',
      maxRounds: 4,
      fix: 'auto',
      checkpoint: false,
      preset: 'code',
      ...h.options,
    },
    ports: {
      models,
      store: createLocalReviewStore(dir),
      target,
      checkpoint: h.checkpoint ?? { ask: async () => ({ kind: 'go' }) },
      log,
      clock: h.now ?? (() => new Date()),
      events: { emit: (e) => void events.push(e) },
      ...(h.hex ? { randomHex: () => h.hex! } : {}),
    },
  };
}

export async function stageFile(dir: string, name: string): Promise<string> {
  return readFile(path.join(dir, 'review-stage', name), 'utf8');
}

export async function stateOf(dir: string): Promise<Record<string, unknown>> {
  return JSON.parse(await stageFile(dir, 'REVIEW_STATE.json')) as Record<string, unknown>;
}

export async function receiptsOf(dir: string): Promise<Array<Record<string, unknown>>> {
  const text = await stageFile(dir, 'ACQUITTAL_LOG.jsonl').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
