/**
 * What a round shows its models (docs/how-it-works.md § Review rounds): the claims, the diff from the base
 * to the head, the changed files at the head — each within its size budget — and from round 2 the raw
 * diff between the head the last round reviewed and this one.
 */
import { bundleFiles, withCutNote, type FileAtHead, type FilesBundle } from '../core/review/material.js';
import type { ChangeMaterial, SinceLastReview } from '../core/review/prompts.js';
import type { ReviewTarget } from '../ports/review.js';
import type { RunContext } from './start.js';
import { messageOf } from '../core/errors.js';

export interface RoundMaterial {
  head: string;
  /** Files the change touches (the allow-list's base). */
  files: string[];
  change: ChangeMaterial;
  sinceLast: SinceLastReview | undefined;
}

export function shortRange(from: string, to: string): string {
  return `${from.slice(0, 12)}..${to.slice(0, 12)}`;
}

/** Files read at once: git spawns a process per read, and on a loaded machine they overlap well. */
const PARALLEL_READS = 4;

/** Reads files at `head` in order, up to `budget` characters, naming the ones left out and why. */
export async function readFilesAt(
  target: ReviewTarget,
  paths: readonly string[],
  head: string,
  budget: number,
): Promise<FilesBundle> {
  const files: FileAtHead[] = [];
  const omitted: Array<{ path: string; reason: string }> = [];
  let spent = 0;
  for (let start = 0; start < paths.length; start += PARALLEL_READS) {
    const batch = paths.slice(start, start + PARALLEL_READS);
    if (spent >= budget) {
      for (const path of batch) omitted.push({ path, reason: 'size budget spent' });
      continue;
    }
    const reads = await Promise.all(batch.map((path) => target.readFile(path, head, budget)));
    reads.forEach((read, i) => {
      const path = batch[i]!;
      switch (read.kind) {
        case 'file':
          files.push({
            path,
            text: read.truncated ? `${read.text}\n[… cut: the file has ${read.bytes} bytes]` : read.text,
          });
          spent += read.text.length;
          break;
        case 'missing':
          omitted.push({ path, reason: 'deleted at the head' });
          break;
        case 'symlink':
          omitted.push({ path, reason: 'a symbolic link' });
          break;
        case 'binary':
          omitted.push({ path, reason: `binary, ${read.bytes} bytes` });
          break;
        case 'folder':
          omitted.push({ path, reason: 'a folder' });
          break;
      }
    });
  }
  return bundleFiles(files, budget, omitted);
}

export async function gatherMaterial(ctx: RunContext, head: string): Promise<RoundMaterial> {
  const { target } = ctx.ports;
  const { budgets } = ctx.options;
  const base = ctx.base;
  const previous = ctx.state.reviewed_head;
  const wantSince = previous !== null && ctx.state.history.some((r) => r.score !== null);
  // Independent git questions, asked together.
  const [files, diff, since] = await Promise.all([
    target.filesUnderReview(base, head),
    target.diff(base, head, budgets.diff),
    wantSince ? sinceLastReview(target, previous, head, budgets.sinceLast) : Promise.resolve(undefined),
  ]);
  const bundle = await readFilesAt(target, files, head, budgets.files);
  const claimsText =
    ctx.claims.text.length > budgets.claims
      ? withCutNote(
          {
            text: ctx.claims.text.slice(0, budgets.claims),
            omittedChars: ctx.claims.text.length - budgets.claims,
          },
          'the claims',
        )
      : ctx.claims.text;
  const change: ChangeMaterial = {
    claims: { source: ctx.claims.source, text: claimsText },
    range: shortRange(base, head),
    diff: withCutNote(diff, 'the diff'),
    changedFiles: files,
    files: bundle,
  };
  return { head, files, change, sinceLast: since };
}

async function sinceLastReview(
  target: ReviewTarget,
  previous: string,
  head: string,
  budget: number,
): Promise<SinceLastReview> {
  try {
    const [since, changedFiles] = await Promise.all([
      target.diff(previous, head, budget),
      target.changedFiles(previous, head),
    ]);
    return {
      range: shortRange(previous, head),
      diff: withCutNote(since, 'the diff since your last review'),
      changedFiles,
    };
  } catch (err) {
    // The previous head can vanish (a force-push on a forge): say so rather than show a wrong diff.
    return {
      range: shortRange(previous, head),
      diff: `(the head reviewed last round, ${previous.slice(0, 12)}, is no longer available: ${messageOf(err)})`,
      changedFiles: [],
    };
  }
}
