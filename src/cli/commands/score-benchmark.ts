/**
 * `skillclimb score --benchmark-json <path>`: the score written as skill-creator's benchmark.json
 * (core/iterate/benchmark-json.ts), the with-skill renders beside the same scenarios rendered without the
 * skill (the `--uplift` renders), so skill-creator's eval viewer shows a skillclimb run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildBenchmarkJson } from '../../core/iterate/benchmark-json.js';
import type { SkillEvals } from '../../core/iterate/evals.js';
import type { SkillScore } from '../../iterate/score.js';
import type { SkillModels } from '../../ports/models.js';
import type { CliIo } from '../io.js';

export interface BenchmarkRequest {
  skillName: string;
  skillDir: string;
  evals: SkillEvals;
  models: SkillModels;
  withSkill: SkillScore;
  /** undefined when the with-skill score failed first (nothing was rendered without the skill). */
  withoutSkill: SkillScore | undefined;
}

/**
 * Writes the file at `file` (as typed, from the cwd) and says so — on stderr when stdout is the `--json`
 * document; when there is nothing to write, says why and makes the exit code 1.
 */
export async function writeBenchmarkJson(
  io: CliIo,
  file: string,
  request: BenchmarkRequest,
  json = false,
): Promise<void> {
  const target = path.resolve(io.cwd, file);
  const { withSkill, withoutSkill } = request;
  const problem =
    withSkill.status !== 'ok' || withSkill.absolute === null
      ? `the score is ${withSkill.status}`
      : withoutSkill === undefined || withoutSkill.status !== 'ok'
        ? `the renders without the skill failed (${withoutSkill ? `${withoutSkill.status}: ${withoutSkill.detail ?? 'no score'}` : 'not run'})`
        : undefined;
  if (problem !== undefined || withoutSkill === undefined) {
    io.err(`skillclimb score: benchmark.json not written: ${problem ?? 'no score without the skill'}\n`);
    io.exitCode = 1;
    return;
  }
  const doc = buildBenchmarkJson({
    skillName: request.skillName,
    skillPath: request.skillDir,
    executorModel: request.models.renderModelId,
    analyzerModel: request.models.graderModelId ?? 'unknown',
    timestamp: (io.now ?? (() => new Date()))(),
    evals: request.evals,
    withSkill,
    withoutSkill,
    notes: [
      `skillclimb score: ${request.skillName} scored ${withSkill.score?.toFixed(4) ?? 'NULL'} (${withSkill.mode}); ` +
        `one render per eval and configuration, graded by ${request.models.graderModelId ?? 'the grader model'}`,
      'without_skill: the same prompts rendered with no skill instructions',
    ],
  });
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, `${JSON.stringify(doc, null, 2)}\n`);
  (json ? io.err : io.out)(`benchmark.json (skill-creator's format) written to ${target}\n`);
}
