/**
 * Phase C with `--fix auto` (docs/how-it-works.md § Review fixes): the executor proposes
 * `{path, old_string, new_string}` edits for the remaining weaknesses; each edit passes the allow-list
 * (files the change already touches plus configured globs; never .github/workflows/, review-stage/,
 * .aris/), must name a regular file at the head, and its old_string must occur exactly once. What passes
 * is committed as one commit; every refused edit is recorded with its reason. The person's instructions —
 * a checkpoint answer, or instructions the front-end took outside a checkpoint — go to the executor.
 */
import {
  applyEditToText,
  checkEditPath,
  globToRegExp,
  normalizeRepoPath,
  type AllowList,
} from '../core/review/edits.js';
import {
  applyCheck,
  checksFromFix,
  droppedLine,
  rankedAgain,
  type CheckPlan,
} from '../core/review/finding-verification.js';
import type { FixReport, RejectedEdit } from '../core/review/outcome.js';
import { proposedChanges } from '../core/review/proposed-changes.js';
import { counted } from '../core/text/counted.js';
import type { RankedWeakness } from '../core/review/state.js';
import { callWithOneRetry, type RoundMeter } from './calls.js';
import { readFilesAt, type RoundMaterial } from './material.js';
import { MAX_EDITABLE_FILE_BYTES, MAX_FIXES_PER_ROUND } from './options.js';
import type { RunContext } from './start.js';

export interface FixRequest {
  weaknesses: RankedWeakness[];
  skipped: number[];
  guidance: string | null;
  /**
   * The round's findings nobody has checked yet, when the fix call checks them (docs/how-it-works.md
   * § Approval under noise): the executor says for each whether it holds, and only those that hold stand.
   */
  check?: CheckPlan;
}

/** The weaknesses a fix should address: not resolved in the debate, not skipped at the checkpoint. */
export function fixList(weaknesses: readonly RankedWeakness[], skipped: readonly number[]): RankedWeakness[] {
  return weaknesses
    .filter((w) => !w.resolved_by_debate && !skipped.includes(w.rank))
    .slice(0, MAX_FIXES_PER_ROUND);
}

/** Editable files to show the executor: the touched files, plus glob-allowed files a weakness names. */
function editablePaths(allow: AllowList, weaknesses: readonly RankedWeakness[]): string[] {
  const paths = [...allow.touched];
  for (const w of weaknesses) {
    if (w.file === null) continue;
    const checked = normalizeRepoPath(w.file);
    if (!checked.ok || allow.touched.has(checked.path) || paths.includes(checked.path)) continue;
    if (allow.globs.some((g) => globToRegExp(g).test(checked.path))) paths.push(checked.path);
  }
  return paths;
}

/** Where and how much one file changed, from its text before and after: `src/a.ts: line 6 replaced`. */
function changeLine(path: string, before: string, after: string): string {
  const runs = proposedChanges(path, before, after);
  if (runs.length === 0) return `- ${path}: no whole line changed`;
  const removed = runs.reduce((n, r) => n + r.oldLines.length, 0);
  const added = runs.reduce((n, r) => n + r.newLines.length, 0);
  const where = runs.map((r) =>
    r.oldLines.length === 0
      ? `after line ${r.startLine - 1}`
      : r.endLine > r.startLine
        ? `lines ${r.startLine}-${r.endLine}`
        : `line ${r.startLine}`,
  );
  const amount =
    removed === added
      ? `${counted(added, 'line')} replaced`
      : `${counted(removed, 'line')} removed, ${counted(added, 'line')} added`;
  return `- ${path}: ${amount} (${where.join(', ')})`;
}

/**
 * The fix commit's message (docs/how-it-works.md § Review fixes) says what the commit changes — the files
 * and the lines the executor's edits touched — and which findings it was asked to address, as a request:
 * whether it addressed them is the next round's review to say, not the commit's.
 */
function commitMessage(
  round: number,
  runId: string,
  asked: readonly RankedWeakness[],
  files: ReadonlyArray<{ path: string; before: string; after: string }>,
): string {
  const changed = files.map((f) => changeLine(f.path, f.before, f.after));
  const findings = asked.map((w) => `${w.rank}. ${w.title.replace(/\s+/g, ' ')}`);
  const paths = files.map((f) => f.path);
  const subject = `review-loop: round ${round} edits ${paths.length <= 2 ? paths.join(', ') : counted(paths.length, 'file')} (${runId})`;
  return [
    subject,
    '',
    `The executor model's edits after round ${round}'s review, checked only against the edit rules (allowed files, an exact match for each replaced text):`,
    ...changed,
    '',
    `The findings of round ${round}'s review it was asked to address (the next round's review says whether it did):`,
    ...findings,
    '',
  ].join('\n');
}

/** The executor's edits checked and applied in memory: new texts (and the texts they replace) by path. */
interface PlannedFix {
  report: FixReport;
  todo: RankedWeakness[];
  /** The request's weaknesses that stand after the executor's check (all of them when none was asked). */
  standing: RankedWeakness[];
  texts: Map<string, string>;
  originals: Map<string, string>;
  rejected: RejectedEdit[];
}

async function planFixes(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  material: RoundMaterial,
  request: FixRequest,
): Promise<PlannedFix> {
  const { target, models } = ctx.ports;
  const report: FixReport = {
    summary: '',
    applied: [],
    rejected: [],
    commit: null,
    skipped: request.skipped,
    guidance: request.guidance,
    instructions: null,
  };
  const texts = new Map<string, string>();
  const originals = new Map<string, string>();
  const rejected: RejectedEdit[] = [];
  const planned = { report, texts, originals, rejected, standing: request.weaknesses };
  let todo = fixList(request.weaknesses, request.skipped);
  if (todo.length === 0) {
    report.summary = 'nothing to fix: every weakness was resolved in the debate or skipped';
    report.noEdit = 'nothing-to-fix';
    return { ...planned, todo };
  }
  const check = request.check?.toCheck.length ? request.check : undefined;
  // Taken only when there is something to fix, so instructions wait for the fix they were meant for.
  report.instructions = (await ctx.ports.instructions?.take(ctx.signal))?.trim() || null;
  const guidance = [request.guidance, report.instructions].filter((text) => text).join('\n\n');
  const allow: AllowList = { touched: new Set(material.files), globs: ctx.options.allowGlobs };
  const editable = await readFilesAt(
    target,
    editablePaths(allow, todo),
    material.head,
    ctx.options.budgets.fixFiles,
  );
  const proposal = await callWithOneRetry(ctx, meter, round, 'fix', () =>
    models.proposeFix(
      {
        weaknesses: todo,
        check: check?.toCheck.map((f) => f.rank),
        guidance: guidance || undefined,
        editable,
        diff: material.change.diff,
        range: material.change.range,
      },
      ctx.signal,
    ),
  );
  if (!proposal.ok) {
    report.summary = `no fix: ${proposal.error.message} (twice)`;
    report.noEdit = 'no-usable-answer';
    if (check)
      ctx.ports.log.warn(
        `round ${round}: the fix call that checks the findings gave no usable answer; its ${check.toCheck.length} finding(s) stand unchecked`,
      );
    return { ...planned, todo };
  }
  if (check) {
    const result = applyCheck(request.weaknesses, check, checksFromFix(check, proposal.call.value.checks));
    if (result.dropped.length > 0) ctx.ports.log.info(droppedLine(round, material.head, result.dropped));
    planned.standing = rankedAgain(result.kept);
    todo = fixList(planned.standing, []);
    if (todo.length === 0) {
      // Nothing stands: whatever the executor edited was for findings the code does not show.
      report.summary = 'nothing to fix: no finding held when the executor checked it against the code';
      report.noEdit = 'nothing-to-fix';
      return { ...planned, todo };
    }
  }
  report.summary = proposal.call.value.summary;
  if (proposal.call.value.edits.length === 0) report.noEdit = 'none-proposed';

  // Texts as the edits leave them, by path; every edit is checked against the file as edited so far.
  for (const edit of proposal.call.value.edits) {
    const checked = checkEditPath(edit.path, allow);
    if (!checked.ok) {
      rejected.push({ path: edit.path, reason: checked.reason });
      continue;
    }
    const path = checked.path;
    let text = texts.get(path);
    if (text === undefined) {
      const read = await target.readFile(path, material.head, MAX_EDITABLE_FILE_BYTES);
      if (read.kind !== 'file') {
        const why = {
          missing: 'no such file at the head (fixes edit existing files only)',
          symlink: 'symbolic links are never edited',
          folder: 'a folder, not a file',
          binary: 'binary files are never edited',
        };
        rejected.push({ path, reason: why[read.kind] });
        continue;
      }
      if (read.truncated) {
        rejected.push({ path, reason: `larger than ${MAX_EDITABLE_FILE_BYTES} bytes` });
        continue;
      }
      text = read.text;
      originals.set(path, text);
    }
    const applied = applyEditToText(text, edit);
    if (!applied.ok) {
      rejected.push({ path, reason: applied.reason });
      continue;
    }
    texts.set(path, applied.text);
  }
  return { ...planned, todo };
}

function logRefused(ctx: RunContext, round: number, rejected: readonly RejectedEdit[]): void {
  for (const r of rejected) ctx.ports.log.warn(`round ${round}: edit to ${r.path} refused: ${r.reason}`);
}

/**
 * Phase C with `--fix auto`: the executor's edits, checked, committed as one commit. `beforeCommit` gets
 * the findings that stand after the executor's check (the request's own when none was asked) once the
 * executor has answered and before anything is committed: the round is posted there.
 */
export async function applyFixes(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  material: RoundMaterial,
  request: FixRequest,
  beforeCommit?: (standing: RankedWeakness[]) => Promise<void>,
): Promise<FixReport> {
  const { target } = ctx.ports;
  const { report, todo, texts, originals, rejected, standing } = await planFixes(
    ctx,
    meter,
    round,
    material,
    request,
  );
  await beforeCommit?.(standing);
  if (texts.size > 0) {
    const files = [...texts].map(([path, text]) => ({ path, text }));
    const message = commitMessage(
      round,
      ctx.state.run_id,
      todo,
      files.map((f) => ({ path: f.path, before: originals.get(f.path) ?? '', after: f.text })),
    );
    const result = await target.commitFiles(files, message);
    rejected.push(...result.refused);
    const refused = new Set(result.refused.map((r) => r.path));
    report.applied = files.filter((f) => !refused.has(f.path)).map((f) => ({ path: f.path }));
    if (result.head !== material.head) report.commit = result.head;
  }
  report.rejected = rejected;
  logRefused(ctx, round, rejected);
  return report;
}

/**
 * `fix: manual` in the App (docs/how-it-works.md § Review fixes): the executor proposes its fixes as it
 * would in auto mode, checked the same way, but nothing is committed — the changed lines are reported
 * for the person to apply (the App posts them as suggested changes).
 */
export async function proposeFixes(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  material: RoundMaterial,
  weaknesses: RankedWeakness[],
): Promise<FixReport> {
  const { report, texts, originals, rejected } = await planFixes(ctx, meter, round, material, {
    weaknesses,
    skipped: [],
    guidance: null,
  });
  report.rejected = rejected;
  report.proposed = [...texts].flatMap(([path, text]) =>
    proposedChanges(path, originals.get(path) ?? '', text),
  );
  logRefused(ctx, round, rejected);
  return report;
}
