/**
 * One `bench:iterate` run, in its own process so that its memory is its own: builds the bench project in a
 * temporary git repository and runs the REAL engine of a build (runIterate, the CLI's local ports, the
 * provider layer from createModels) against the latency model server named in the configuration.
 * Prints one JSON line: the run's outcome, the concurrency it used and its maximum resident set size.
 *
 * Configuration (JSON in BENCH_CONFIG): { build, serverUrl, provider, profile, concurrency (null: the
 * build's default), iterations, root }.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { commitProject, writeSkill } from './bench-project.mjs';
import { SKILL, SKILL_MD, generateEvals } from './bench-skill.mjs';

const MODELS = {
  anthropic: 'anthropic:claude-sonnet-4-5',
  openai: 'openai:gpt-5',
  'openai-compatible': 'openai-compatible:bench-model',
};

async function createProject(root) {
  const project = path.join(root, 'project');
  await writeSkill(project, SKILL, SKILL_MD, generateEvals());
  await commitProject(project, 'bench skill');
  return project;
}

async function main() {
  const config = JSON.parse(process.env.BENCH_CONFIG ?? '{}');
  const load = (p) => import(pathToFileURL(path.join(config.build, p)).href);
  const [{ runIterate }, { createLocalPorts }, { createModels }, { ITERATE_DEFAULTS }] = await Promise.all([
    load('iterate/run.js'),
    load('adapters/local/ports.js'),
    load('llm/factory.js'),
    load('iterate/options.js'),
  ]);
  process.env.GIT_AUTHOR_NAME ??= 'skillclimb bench';
  process.env.GIT_AUTHOR_EMAIL ??= 'bench@skillclimb.invalid';
  process.env.GIT_COMMITTER_NAME ??= process.env.GIT_AUTHOR_NAME;
  process.env.GIT_COMMITTER_EMAIL ??= process.env.GIT_AUTHOR_EMAIL;

  const project = await createProject(config.root);
  const env = {
    ANTHROPIC_API_KEY: 'bench-anthropic-key',
    ANTHROPIC_BASE_URL: config.serverUrl,
    OPENAI_API_KEY: 'bench-openai-key',
    OPENAI_BASE_URL: `${config.serverUrl}/v1`,
  };
  const models = createModels({ model: MODELS[config.provider] }, env, {});
  const warnings = [];
  const log = { info: () => {}, warn: (m) => warnings.push(m), progress: () => {} };
  const concurrency = config.concurrency ?? ITERATE_DEFAULTS.concurrency;
  const options = {
    project,
    skill: SKILL,
    queueFile: undefined,
    perSkillBudgetMs: 3_600_000,
    perSkillIterations: config.iterations,
    skipList: [],
    calibrate: false,
    dryRun: false,
    mode: 'composite',
    concurrency,
    iterationTimeoutMs: 600_000,
    worktreeHome: config.root,
    maxCostUsd: undefined,
  };
  const run = await runIterate(options, createLocalPorts(options, { models, log }));
  const skill = run.results[0];
  const outcomes = {};
  for (const row of skill?.rows ?? []) outcomes[row.status] = (outcomes[row.status] ?? 0) + 1;
  process.stdout.write(
    `${JSON.stringify({
      concurrency,
      status: skill?.status ?? 'not processed',
      outcomes,
      warnings,
      maxRssKb: process.resourceUsage().maxRSS,
    })}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`bench:iterate child failed: ${error?.stack ?? error}\n`);
  process.exitCode = 1;
});
