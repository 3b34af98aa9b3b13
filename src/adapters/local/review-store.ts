/**
 * The review store on a local checkout: exactly the original's files (docs/how-it-works.md § Review
 * state, memory and receipts) — `review-stage/REVIEW_STATE.json` (overwritten, atomically),
 * `REVIEWER_MEMORY.md` and `AUTO_REVIEW.md` (appended), `ACQUITTAL_LOG.jsonl` (one O_APPEND write per
 * receipt line, never rewritten) — and `.aris/traces/auto-review-loop/<YYYY-MM-DD>_runNN/` with each call's
 * request, raw response and meta. A state file left at the project root by older versions is still read.
 */
import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseReceipts, nextTraceFolder, receiptLine, TRACE_SKILL } from '../../core/review/log.js';
import { StoredStateSchema, type StoredState } from '../../core/review/state.js';
import type { ReviewStore } from '../../ports/review.js';
import { SkillclimbError, messageOf } from '../../core/errors.js';

export const REVIEW_STAGE = 'review-stage';
export const STATE_FILE = 'REVIEW_STATE.json';
export const MEMORY_FILE = 'REVIEWER_MEMORY.md';
export const LOG_FILE = 'AUTO_REVIEW.md';
export const RECEIPTS_FILE = 'ACQUITTAL_LOG.jsonl';
export const TRACES_DIR = path.join('.aris', 'traces');

/** A state file that cannot be read: named, never overwritten (it may be the only record of a run). */
export class ReviewStateFileError extends SkillclimbError {
  readonly kind = 'input-file';
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: ${detail}; fix or delete it to start a fresh run`);
    this.name = 'ReviewStateFileError';
  }
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parseState(file: string, text: string): StoredState {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ReviewStateFileError(file, `not valid JSON (${messageOf(err)})`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ReviewStateFileError(file, 'expected a JSON object');
  }
  const parsed = StoredStateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReviewStateFileError(file, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Trace ids and call names become paths: only our own shapes are accepted. */
function safeSegment(value: string, what: string): string {
  if (
    !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(value) ||
    value.split('/').some((s) => s === '..' || s === '.')
  ) {
    throw new Error(`${what} "${value}" is not a plain relative name`);
  }
  return value;
}

/** Appends a Markdown section, separated from what is there by one blank line. */
async function appendSection(target: string, text: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const existing = await readIfPresent(target);
  const separator =
    existing === undefined || existing === '' || existing.endsWith('\n\n')
      ? ''
      : existing.endsWith('\n')
        ? '\n'
        : '\n\n';
  await appendFile(target, `${separator}${text.replace(/^\n+/, '')}`, 'utf8');
}

export function createLocalReviewStore(project: string): ReviewStore {
  const stage = path.join(project, REVIEW_STAGE);
  const file = (name: string) => path.join(stage, name);
  const tracesRoot = path.join(project, TRACES_DIR);
  const ensureStage = () => mkdir(stage, { recursive: true });

  return {
    location: `${REVIEW_STAGE}/${STATE_FILE}`,

    async readState() {
      for (const candidate of [file(STATE_FILE), path.join(project, STATE_FILE)]) {
        const text = await readIfPresent(candidate);
        if (text !== undefined) return parseState(candidate, text);
      }
      return undefined;
    },

    async writeState(state) {
      await ensureStage();
      // Write-then-rename: a crash mid-write never leaves half a state file behind.
      const temp = file(`${STATE_FILE}.${randomUUID().slice(0, 8)}.tmp`);
      await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, 'utf8');
      await rename(temp, file(STATE_FILE));
    },

    async deleteState() {
      await rm(file(STATE_FILE), { force: true });
      await rm(path.join(project, STATE_FILE), { force: true });
    },

    async readMemory() {
      return (await readIfPresent(file(MEMORY_FILE))) ?? '';
    },

    async appendMemory(text) {
      await appendSection(file(MEMORY_FILE), text);
    },

    async appendLog(text) {
      await appendSection(file(LOG_FILE), text);
    },

    async appendReceipt(receipt) {
      await ensureStage();
      const target = file(RECEIPTS_FILE);
      const existing = await readIfPresent(target);
      // A foreign line without its newline would swallow ours: start on a fresh line (still only appending).
      const lead = existing !== undefined && existing !== '' && !existing.endsWith('\n') ? '\n' : '';
      const handle = await open(target, 'a');
      try {
        await handle.write(`${lead}${receiptLine(receipt)}`);
      } finally {
        await handle.close();
      }
    },

    async readReceipts() {
      return parseReceipts((await readIfPresent(file(RECEIPTS_FILE))) ?? '');
    },

    async createTraceFolder(now) {
      const parent = path.join(tracesRoot, TRACE_SKILL);
      await mkdir(parent, { recursive: true });
      for (;;) {
        const name = nextTraceFolder(now, await readdir(parent));
        try {
          await mkdir(path.join(parent, name));
          return `${TRACE_SKILL}/${name}`;
        } catch (err) {
          // Another run took the name between readdir and mkdir: take the next one.
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
      }
    },

    async writeTrace(traceId, name, trace) {
      const dir = path.join(tracesRoot, safeSegment(traceId, 'trace id'));
      const base = path.join(dir, safeSegment(name, 'trace name'));
      await mkdir(dir, { recursive: true });
      await writeFile(`${base}.request.json`, `${JSON.stringify(trace.request, null, 2)}\n`, 'utf8');
      await writeFile(
        `${base}.response.md`,
        trace.response.endsWith('\n') ? trace.response : `${trace.response}\n`,
        'utf8',
      );
      await writeFile(`${base}.meta.json`, `${JSON.stringify(trace.meta, null, 2)}\n`, 'utf8');
    },
  };
}
