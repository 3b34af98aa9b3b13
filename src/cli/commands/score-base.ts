/**
 * `skillclimb score --base <ref>`: every skill whose folder changed since `<ref>` (its merge base with HEAD)
 * scored at the base and in the working tree, side by side — the same comparison as the Action's
 * `mode: score` (docs/action.md § Scores on pull requests), printed instead of posted. The base is checked
 * out in a temporary detached worktree and removed again.
 */
import os from 'node:os';
import path from 'node:path';
import { loadProjectModels } from '../../config/project-models.js';
import { formatGain } from '../../core/iterate/noise.js';
import { regressionsOf, sideScore, type SkillComparison } from '../../core/iterate/pr-score.js';
import { DEFAULT_SKILLS_GLOBS } from '../../core/iterate/skill-layout.js';
import { messageOf } from '../../core/errors.js';
import { scoreCommentMarker } from '../../github/markers.js';
import { renderScoreComment } from '../../github/action/score-comment.js';
import { changedPathsSince, checkOutBase, repositoryTop, resolveBaseCommit } from '../../git/pr-sides.js';
import { headCommit } from '../../git/worktree.js';
import { ITERATE_DEFAULTS } from '../../iterate/options.js';
import { scorePullRequest } from '../../iterate/pr-score.js';
import type { createModels } from '../../llm/factory.js';
import type { CliIo } from '../io.js';
import { shouldHandleSignals } from '../signals.js';

export interface ScoreBaseRequest {
  base: string;
  /** The skill folder given, to compare that skill only; undefined: every changed skill. */
  skillDir: string | undefined;
  /** The project whose skillclimb.config.json and skills setting apply. */
  project: string;
  skills: string[] | undefined;
  /** `--trials` when given on the command line: independent draws per side. */
  trials: number | undefined;
  margin: number | undefined;
  uplift: boolean;
  concurrency: number;
  json: boolean;
  markdown: boolean;
  models: { model?: string; renderModel?: string; graderModel?: string };
  createModels?: typeof createModels | undefined;
}

function sideJson(c: SkillComparison, which: 'base' | 'head') {
  const side = c[which];
  if (!side) return null;
  return {
    status: side.status,
    detail: side.detail ?? null,
    mode: side.mode,
    mean: sideScore(side),
    scores: side.scores,
  };
}

function comparisonJson(c: SkillComparison): Record<string, unknown> {
  const k = c.confirmation;
  return {
    skill: c.skill.name,
    dir: c.skill.repoDir,
    change: c.skill.change,
    verdict: c.verdict,
    reason: c.reason,
    base: sideJson(c, 'base'),
    head: sideJson(c, 'head'),
    difference: k ? { gain: k.gain, low: k.low, high: k.high, needed: k.needed } : null,
    assertions: (k?.evidence ?? []).map((e) => ({
      assertion_id: e.assertionId,
      base: e.before,
      head: e.after,
    })),
    new_findings: c.newFindings.map((f) => ({
      assertion_id: f.assertionId,
      kind: f.kind,
      evidence: f.evidence,
    })),
    uplift: c.head?.uplift
      ? { uplift: c.head.uplift.uplift, with: c.head.uplift.with, without: c.head.uplift.without }
      : null,
  };
}

function formatComparison(c: SkillComparison): string {
  const score = (v: number | null) => (v === null ? '-' : v.toFixed(4));
  const k = c.confirmation;
  const change =
    k === undefined
      ? ''
      : k.low === k.high
        ? ` (${formatGain(k.gain)})`
        : ` (${formatGain(k.gain)}, 90 % interval ${formatGain(k.low)} to ${formatGain(k.high)})`;
  const lines = [
    `${c.skill.name} (${c.skill.repoDir}, ${c.skill.change}): ${score(sideScore(c.base))} -> ${score(sideScore(c.head))}${change}: ${c.verdict} -- ${c.reason}`,
  ];
  for (const side of ['base', 'head'] as const) {
    const s = c[side];
    if (s && s.status !== 'ok') lines.push(`  ${side}: ${s.status}${s.detail ? ` (${s.detail})` : ''}`);
  }
  for (const e of k?.evidence ?? []) {
    lines.push(
      `  assertion ${e.assertionId}: ${e.before.passes} of ${e.before.total} at the base -> ${e.after.passes} of ${e.after.total} in the working tree`,
    );
  }
  for (const f of c.newFindings)
    lines.push(`  new finding: assertion ${f.assertionId} ${f.kind} (${f.evidence})`);
  const u = c.head?.uplift;
  if (u) {
    lines.push(
      `  uplift: ${u.uplift >= 0 ? '+' : ''}${(u.uplift * 100).toFixed(1)} points (${u.with.passes} of ${u.with.total} with the skill, ${u.without.passes} of ${u.without.total} without)`,
    );
  }
  return lines.join('\n');
}

/** Runs the comparison and prints it; exit 1 on a regression beyond the noise margin, 2 on bad input. */
export async function runScoreBase(io: CliIo, request: ScoreBaseRequest): Promise<void> {
  const usage = (message: string): void => {
    io.err(`skillclimb score --base: ${message}\n`);
    io.exitCode = 2;
  };
  let top: string;
  try {
    top = await repositoryTop(request.project);
  } catch {
    return usage(`${request.project} is not inside a git repository (--base compares with a commit)`);
  }
  let baseCommit: string;
  try {
    baseCommit = await resolveBaseCommit(top, request.base);
  } catch (err) {
    return usage(messageOf(err));
  }
  let loaded: Awaited<ReturnType<typeof loadProjectModels>>;
  try {
    loaded = await loadProjectModels({
      project: request.project,
      flags: request.models,
      env: io.env,
      create: request.createModels,
    });
  } catch (err) {
    return usage(messageOf(err));
  }
  const prefix = path.relative(top, request.project).split(path.sep).join('/');
  let changed = await changedPathsSince(top, baseCommit);
  if (request.skillDir !== undefined) {
    const only = path.relative(top, request.skillDir).split(path.sep).join('/');
    changed = changed.filter((p) => p === only || p.startsWith(`${only}/`));
  }
  const trials = request.trials ?? loaded.config.trials ?? ITERATE_DEFAULTS.trials;
  const margin = request.margin ?? loaded.config.margin ?? ITERATE_DEFAULTS.margin;
  const log = { info: () => undefined, warn: (m: string) => io.err(`${m}\n`), progress: () => undefined };
  const base = await checkOutBase(top, baseCommit, os.tmpdir());
  // Ctrl+C stops the scoring but still removes the base's worktree from the user's repository.
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stoppedBy !== undefined) process.exit(128 + (os.constants.signals[signal] ?? 0));
    stoppedBy = signal;
    io.err(`${signal}: stopping; removing the base's worktree (send it again to exit at once)\n`);
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  const signals = shouldHandleSignals(undefined) ? (['SIGINT', 'SIGTERM'] as const) : [];
  for (const signal of signals) process.on(signal, onSignal);
  let comparisons: SkillComparison[];
  try {
    comparisons = await scorePullRequest({
      base: { project: path.join(base.root, ...(prefix ? prefix.split('/') : [])), repository: base.root },
      head: { project: request.project, repository: top },
      prefix,
      globs: request.skills ?? loaded.config.skills ?? DEFAULT_SKILLS_GLOBS,
      changedPaths: changed,
      models: loaded.models,
      structural: loaded.config.structural,
      trials,
      margin,
      uplift: request.uplift && !loaded.models.structuralOnly,
      concurrency: request.concurrency,
      signal: controller.signal,
      log,
    });
  } catch (err) {
    if (stoppedBy === undefined) throw err;
    io.exitCode = 128 + (os.constants.signals[stoppedBy] ?? 0);
    return;
  } finally {
    for (const signal of signals) process.removeListener(signal, onSignal);
    await base.remove();
  }
  const regressions = regressionsOf(comparisons, 'regression');
  const structural = loaded.models.structuralOnly;
  if (request.json) {
    io.out(
      `${JSON.stringify(
        {
          base: baseCommit,
          models: loaded.models.label,
          scoring: structural ? 'structural' : 'composite',
          trials: structural ? 1 : trials,
          margin,
          skills: comparisons.map(comparisonJson),
          regressions: regressions.map((c) => c.skill.name),
        },
        null,
        2,
      )}\n`,
    );
  } else if (request.markdown) {
    io.out(
      `${renderScoreComment({
        marker: scoreCommentMarker(prefix || '.'),
        comparisons,
        scoring: structural
          ? { kind: 'structural', models: loaded.models.label, trials: 1, margin }
          : { kind: 'composite', models: loaded.models.label, trials, margin },
        failOn: 'regression',
        baseSha: baseCommit,
        headSha: await headCommit(top),
      })}\n`,
    );
  } else {
    const how = structural
      ? `structural scores (models: ${loaded.models.label})`
      : `composite scores, ${trials} draw${trials === 1 ? '' : 's'} per side, margin ${margin} (models: ${loaded.models.label})`;
    io.out(`base: ${baseCommit.slice(0, 12)} (${request.base}); head: the working tree; ${how}\n`);
    if (comparisons.length === 0) io.out('no skill folder changed since the base\n');
    for (const c of comparisons) io.out(`${formatComparison(c)}\n`);
    io.out(
      regressions.length === 0
        ? 'no skill regressed beyond the noise margin\n'
        : `regressed beyond the noise margin: ${regressions.map((c) => c.skill.name).join(', ')}\n`,
    );
  }
  io.exitCode = regressions.length > 0 ? 1 : 0;
}
