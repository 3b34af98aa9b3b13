/**
 * The per-job result file: a RunResult plus what the Action shipped and parked, as JSON. Matrix jobs upload
 * it as an artifact; `mode: summarize` reads a folder of them and merges them into one run.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { redactSecrets } from '../core/text/redact.js';
import type { RunResult, SkillMeasurement, SkillResult } from '../core/iterate/run-result.js';
import { addUsage, ZERO_USAGE, type Usage } from '../core/usage.js';
import { messageOf } from '../core/errors.js';

const UsageSchema = z.object({
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  costUsd: z.number().nullable(),
});

const optional = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .optional()
    .transform((v) => v ?? undefined);

const RowSchema = z.object({
  commit: z.string(),
  score: z.number().nullable(),
  status: z.enum(['baseline', 'keep', 'revert', 'crash']),
  description: z.string(),
  wallSeconds: z.number(),
});

const KeptEditSchema = z.object({
  iteration: z.number(),
  commit: z.string(),
  description: z.string(),
  score: z.number(),
  delta: z.number(),
});

const SkillResultSchema = z.object({
  skill: z.string(),
  baselineScore: z.number().nullable(),
  finalScore: z.number().nullable(),
  iterations: z.number(),
  wallSecondsTotal: z.number(),
  status: z.string().transform((s) => s as SkillResult['status']),
  link: optional(z.string()),
  detail: z.string().optional(),
  keptEdits: z.array(KeptEditSchema),
  linesDelta: optional(z.number()),
  usage: UsageSchema,
  rows: z.array(RowSchema),
  // The night's noise, confirmation and findings (docs/how-it-works.md § Decisions under noise): written by
  // this same build, read back for the matrix summary as it was written.
  measurement: z
    .looseObject({ keepRule: z.enum(['original', 'noise-aware']), findings: z.array(z.unknown()) })
    .transform((m) => m as unknown as SkillMeasurement)
    .optional(),
});

const RunResultSchema = z.object({
  startedAt: z.coerce.date(),
  endedAt: z.coerce.date(),
  partial: z.object({ reason: z.string(), at: z.coerce.date() }).nullable(),
  queue: z.array(z.string()),
  results: z.array(SkillResultSchema),
  excludedBySkipList: z.array(
    z.object({ skill: z.string(), source: z.enum(['embedded', '--skip-list extension']) }),
  ),
  excludedByFreshness: z.array(z.object({ skill: z.string(), lastRunAt: z.coerce.date() })),
  excludedOther: z
    .array(
      z.object({
        skill: z.string(),
        dir: z.string(),
        reason: z.string(),
        next: z
          .string()
          .nullable()
          .optional()
          .transform((v) => v ?? undefined),
      }),
    )
    .optional(),
  outsideSetting: z.string().optional(),
  freshnessWindowMs: z.number().optional(),
  notRequested: z.array(z.string()).optional(),
  mode: z.enum(['composite', 'structural', 'absolute']).optional(),
  command: z
    .object({
      project: z.string().optional(),
      skills: z.array(z.string()).readonly().optional(),
      mode: z.string().optional(),
      calibrate: z.boolean().optional(),
      models: z
        .object({
          model: z.string().optional(),
          editorModel: z.string().optional(),
          renderModel: z.string().optional(),
          graderModel: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
  summaryPath: optional(z.string()),
  usage: UsageSchema,
  modelsLabel: z.string(),
  runFirst: z.array(z.string()).optional(),
  nightBudget: z
    .object({ budgetUsd: z.number(), spentUsd: z.number(), notStarted: z.array(z.string()) })
    .optional(),
});

export const ShippedOutputSchema = z.object({
  skill: z.string(),
  pr: z.number(),
  url: z.string(),
  baseline: z.number(),
  final: z.number(),
  status: z.enum(['created', 'updated']),
});

export const ParkedOutputSchema = z.object({
  skill: z.string(),
  kind: z.enum(['crashes', 'calibration']),
  location: z.string(),
  via: z.enum(['issue', 'file']),
});

export const RESULT_FILE_FORMAT = 'skillclimb/action-result';

export const RunFileSchema = z.object({
  format: z.literal(RESULT_FILE_FORMAT),
  version: z.literal(1),
  /** `plan` files carry the queue and its exclusions; `run` files carry the results. */
  mode: z.enum(['plan', 'run']),
  run: RunResultSchema,
  shipped: z.array(ShippedOutputSchema),
  parked: z.array(ParkedOutputSchema),
  /** Ship skips (closed-unmerged PR, base conflict, push failure): shown in the summary. */
  notShipped: z.array(z.object({ skill: z.string(), reason: z.string() })).default([]),
});
export type RunFile = z.output<typeof RunFileSchema>;

/**
 * Writes the result file, with `secrets` (and anything credential-shaped) redacted: it is uploaded as an
 * artifact and outlives the runner's log masking.
 */
export async function writeRunFile(
  file: string,
  content: RunFile,
  secrets: readonly (string | undefined)[] = [],
): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${redactSecrets(JSON.stringify(content, null, 2), secrets)}\n`);
  return file;
}

export function parseRunFile(file: string, text: string): RunFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${messageOf(error)})`);
  }
  const parsed = RunFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${file}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`,
    );
  }
  return parsed.data;
}

async function listJsonFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listJsonFiles(full)));
    else if (entry.isFile() && entry.name.endsWith('.json')) out.push(full);
  }
  return out.sort();
}

/** Every result file under `dir` (artifacts download into one sub-folder each). Other JSON files are ignored. */
export async function readRunFiles(dir: string): Promise<RunFile[]> {
  const files: RunFile[] = [];
  for (const file of await listJsonFiles(dir)) {
    const text = await readFile(file, 'utf8');
    if (!text.includes(RESULT_FILE_FORMAT)) continue;
    files.push(parseRunFile(file, text));
  }
  return files;
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(key(item)) ? false : (seen.add(key(item)), true)));
}

/** One run out of many: the plan's queue and exclusions, every job's results in queue order, summed usage. */
export function mergeRunFiles(files: RunFile[]): RunFile {
  if (files.length === 0) throw new Error('no result files to merge');
  const runs = files.map((f) => f.run).sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
  const plans = files.filter((f) => f.mode === 'plan').map((f) => f.run);
  const executed = files.filter((f) => f.mode === 'run').map((f) => f.run);
  const queue = uniqueBy(
    [...(plans.length ? plans : executed).flatMap((r) => r.queue), ...executed.flatMap((r) => r.queue)],
    (s) => s,
  );
  const order = (skill: string) => {
    const i = queue.indexOf(skill);
    return i < 0 ? queue.length : i;
  };
  const results = executed.flatMap((r) => r.results).sort((a, b) => order(a.skill) - order(b.skill));
  const partial = runs.find((r) => r.partial)?.partial ?? null;
  const merged: RunResult = {
    startedAt: runs[0]!.startedAt,
    endedAt: new Date(Math.max(...runs.map((r) => r.endedAt.getTime()))),
    partial,
    queue,
    results,
    excludedBySkipList: uniqueBy(
      runs.flatMap((r) => r.excludedBySkipList),
      (e) => e.skill,
    ),
    excludedByFreshness: uniqueBy(
      runs.flatMap((r) => r.excludedByFreshness),
      (e) => e.skill,
    ),
    excludedOther: uniqueBy(
      runs.flatMap((r) => r.excludedOther ?? []),
      (e) => `${e.skill}\u0000${e.dir}`,
    ),
    outsideSetting: runs.find((r) => r.outsideSetting !== undefined)?.outsideSetting,
    freshnessWindowMs: runs.find((r) => r.freshnessWindowMs !== undefined)?.freshnessWindowMs,
    ...mergedRequests(runs, queue),
    summaryPath: undefined,
    usage: executed.reduce<Usage>((sum, r) => addUsage(sum, r.usage), { ...ZERO_USAGE }),
    modelsLabel: uniqueBy(executed.map((r) => r.modelsLabel).filter(Boolean), (s) => s).join('; '),
  };
  return {
    format: RESULT_FILE_FORMAT,
    version: 1,
    mode: 'run',
    run: merged,
    shipped: files.flatMap((f) => f.shipped),
    parked: files.flatMap((f) => f.parked),
    notShipped: files.flatMap((f) => f.notShipped),
  };
}

/**
 * A matrix's jobs each ask for one skill: the merged run did not ask for the skills none of them asked
 * for. Mode and command are the jobs' own (one workflow run, one setting).
 */
function mergedRequests(
  runs: readonly RunResult[],
  queue: readonly string[],
): Pick<RunResult, 'notRequested' | 'mode' | 'command'> {
  const asked = new Set(queue);
  const withLists = runs.filter((r) => r.notRequested !== undefined);
  const notRequested =
    withLists.length === 0
      ? undefined
      : [...new Set(withLists.flatMap((r) => r.notRequested ?? []))].filter((s) => !asked.has(s)).sort();
  const mode = runs.find((r) => r.mode !== undefined)?.mode;
  const command = runs.find((r) => r.command !== undefined)?.command;
  return {
    ...(notRequested === undefined ? {} : { notRequested }),
    ...(mode === undefined ? {} : { mode }),
    ...(command === undefined ? {} : { command }),
  };
}
