/**
 * Everything that leaves the process or lands in git, fed hostile text (issue 13, items 3 and 4): a GitHub
 * token echoed in an API error body must reach neither the state branch nor the job summary, the outputs
 * or the logs; model text must be inert in the job summary, and a park report too large for an issue must
 * be cut under GitHub's limit with its full text kept on the state branch.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import type { ActionIo, PipelineEngine } from '../../src/action/io.js';
import { renderJobSummary } from '../../src/action/job-summary.js';
import { runPipeline } from '../../src/action/main.js';
import { RESULT_FILE_FORMAT, type RunFile } from '../../src/action/result-file.js';
import { createLocalForge } from '../../src/adapters/local/forge.js';
import { buildCrashParkReport } from '../../src/core/iterate/park.js';
import type { RunResult, SkillResult } from '../../src/core/iterate/run-result.js';
import { ZERO_USAGE } from '../../src/core/usage.js';
import { createGitHubForge } from '../../src/github/forge.js';
import { createGitHubClient } from '../../src/github/octokit.js';
import { openStateStore } from '../../src/github/action/state-store.js';
import type { IteratePorts } from '../../src/ports/iterate.js';
import {
  cleanupTempDirs,
  git,
  GITHUB_API as API,
  makeRemote,
  nightContext,
  NO_RETRIES,
  recordingLog,
  shipRequest,
  tempDir,
} from '../helpers/github-fixtures.js';
import { HOSTILE, liveParts } from '../helpers/markdown-liveness.js';
import { looseNock } from '../helpers/nock-frame.js';
import { reportPlan } from '../helpers/pipeline-engines.js';
import { VALID_EVALS, VALID_SCENARIOS } from '../helpers/skill-project.js';

looseNock(cleanupTempDirs);

/** The workflow's token (a shape the patterns know) and a model key of no known shape. */
const TOKEN = 'ghs_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';
const KEY = 'local-server-key-0123456789';
/** A token of another shape the API might echo (an installation token the runner was never told about). */
const OTHER = 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRS';

const NOW = new Date('2026-05-24T03:00:00Z');

function inputs(values: Partial<Record<ActionInputName, string>> = {}) {
  return parseInputs(
    (name) =>
      (
        ({
          'github-token': TOKEN,
          'openai-api-key': KEY,
          model: 'offline',
          base: 'main',
          'state-branch': 'skill-iterate-state',
          ...values,
        }) as Partial<Record<ActionInputName, string>>
      )[name] ?? '',
  );
}

function recordingIo() {
  const summaries: string[] = [];
  const log = recordingLog();
  const io: ActionIo = {
    log,
    startGroup: () => undefined,
    endGroup: () => undefined,
    writeSummary: async (markdown) => void summaries.push(markdown),
    now: () => NOW,
  };
  return { io, summaries, log };
}

const SKILL = 'alpha';
const skillFiles = {
  [`.claude/skills/${SKILL}/SKILL.md`]: `---\nname: ${SKILL}\ndescription: test skill\n---\n# ${SKILL}\n`,
  [`.claude/skills/${SKILL}/evals/evals.json`]: VALID_EVALS,
  [`.claude/skills/${SKILL}/evals/test_scenarios.json`]: VALID_SCENARIOS,
};

/**
 * An engine that does what the real one does for one improved skill: results.tsv rows on disk, a ship
 * through the real GitHub shipper (whose PR write fails with an error body echoing secrets), and a result
 * whose status quotes the shipper's reason.
 */
function engineShippingOnce(): PipelineEngine {
  return {
    async runIterate(options, ports: IteratePorts): Promise<RunResult> {
      await ports.killSwitch.check();
      await reportPlan(options, ports);
      const project = options.project;
      const rows =
        'commit\tscore\tstatus\tdescription\twall_seconds\naaaaaaa\t0.5\tbaseline\tinitial baseline\t1.000\n';
      await writeFile(path.join(project, `.claude/skills/${SKILL}/evals/results.tsv`), rows);
      const baseCommit = git(project, 'rev-parse', 'HEAD').trim();
      git(project, 'checkout', '-q', '-b', 'skill-iterate/alpha-1');
      await writeFile(path.join(project, `.claude/skills/${SKILL}/SKILL.md`), '# alpha, improved\n');
      git(project, 'commit', '-q', '-am', 'edit');
      git(project, 'checkout', '-q', 'main');
      const outcome = await ports.shipper.ship(
        shipRequest({
          skill: SKILL,
          project,
          skillPath: `.claude/skills/${SKILL}`,
          worktreePath: path.join(project, 'no-worktree'),
          branch: 'skill-iterate/alpha-1',
          baseCommit,
          keptEdits: [
            { iteration: 1, commit: 'bbbbbbb', description: HOSTILE.join(' '), score: 0.9, delta: 0.1 },
          ],
        }),
      );
      const status = outcome.status === 'shipped' ? 'shipped' : `skipped (${outcome.reason})`;
      const result: SkillResult = {
        skill: SKILL,
        baselineScore: 0.5,
        finalScore: 0.9,
        iterations: 1,
        wallSecondsTotal: 1,
        status: status as SkillResult['status'],
        link: undefined,
        keptEdits: [
          { iteration: 1, commit: 'bbbbbbb', description: HOSTILE.join(' '), score: 0.9, delta: 0.1 },
        ],
        linesDelta: 0,
        usage: { ...ZERO_USAGE },
        rows: [
          {
            commit: 'aaaaaaa',
            score: 0.5,
            status: 'baseline',
            description: 'initial baseline',
            wallSeconds: 1,
          },
        ],
      };
      ports.log.warn(`${SKILL}: ${status}`);
      return {
        startedAt: NOW,
        endedAt: NOW,
        partial: null,
        queue: [SKILL],
        results: [result],
        excludedBySkipList: [],
        excludedByFreshness: [],
        summaryPath: undefined,
        usage: { ...ZERO_USAGE },
        modelsLabel: ports.models.label,
      };
    },
  };
}

describe('a token echoed in an API error body (item 3)', () => {
  it('reaches neither the state branch, the job summary, the outputs nor the log', async () => {
    const echo = `Validation Failed: token ${TOKEN} and ${OTHER} and key ${KEY} were rejected`;
    nock(API)
      .persist()
      .get(/\/pulls/)
      .reply(200, [])
      .post(/\/pulls$/)
      .reply(422, { message: echo })
      .get(/.*/)
      .reply(404, { message: 'Not Found' });
    const { origin, checkout } = await makeRemote(skillFiles, { checkout: 'actions' });
    const ctx = await nightContext(checkout);
    const { io, summaries, log } = recordingIo();

    const result = await runPipeline(inputs(), ctx, io, engineShippingOnce());

    const lastRun = git(origin, 'show', `skill-iterate-state:state/${SKILL}/last-run.json`);
    expect(lastRun).toContain('pull request API failed: HTTP 422');
    const everything = [
      lastRun,
      git(origin, 'show', `skill-iterate-state:state/${SKILL}/results.tsv`),
      ...summaries,
      JSON.stringify(result.outputs),
      ...log.infos,
      ...log.warnings,
    ].join('\n');
    expect(summaries.join('\n')).toContain('## Not shipped');
    for (const secret of [TOKEN, OTHER, KEY]) expect(everything).not.toContain(secret);
    expect(everything).toContain('[redacted]');
  });
});

describe('model text in the job summary (item 4)', () => {
  it('shows kept-edit descriptions, statuses and not-shipped reasons as inert text', () => {
    const hostile = `${'x'.repeat(70_000)} ${HOSTILE.join(' ')}`;
    const skill = (name: string, description: string): SkillResult => ({
      skill: name,
      baselineScore: 0.5,
      finalScore: 0.9,
      iterations: 1,
      wallSecondsTotal: 1,
      status: `skipped (${HOSTILE.join(' ')})` as SkillResult['status'],
      link: undefined,
      keptEdits: [{ iteration: 1, commit: 'bbbbbbb', description, score: 0.9, delta: 0.1 }],
      linesDelta: 0,
      usage: { ...ZERO_USAGE },
      rows: [],
    });
    const file: RunFile = {
      format: RESULT_FILE_FORMAT,
      version: 1,
      mode: 'run',
      run: {
        startedAt: NOW,
        endedAt: NOW,
        partial: { reason: `exception: ${HOSTILE.join(' ')}`, at: NOW },
        queue: ['a', 'b'],
        results: [skill('a', HOSTILE.join(' ')), skill('b', hostile)],
        excludedBySkipList: [],
        excludedByFreshness: [],
        summaryPath: undefined,
        usage: { ...ZERO_USAGE },
        modelsLabel: 'offline',
      },
      shipped: [],
      parked: [],
      notShipped: [{ skill: 'a', reason: HOSTILE.join(' ') }],
    };
    const summary = renderJobSummary(file, undefined);
    expect(summary).toContain('## Top kept edits');
    expect(liveParts(summary)).toEqual([]);
  });
});

describe('a park report too large for an issue (item 4)', () => {
  it('is cut under the limit, with a note, and its full text is kept on the state branch', async () => {
    const { origin, checkout } = await makeRemote(skillFiles, { checkout: 'actions' });
    const runnerTemp = await tempDir('skillclimb-runner-');
    const store = await openStateStore({
      project: checkout,
      branch: 'skill-iterate-state',
      worktreeParent: runnerTemp,
      log: recordingLog(),
      secrets: [TOKEN],
    });
    const bodies: string[] = [];
    nock(API)
      .get('/repos/acme/skills/issues')
      .query(true)
      .reply(200, [])
      .post('/repos/acme/skills/issues', (body: { body: string }) => (bodies.push(body.body), true))
      .reply(201, { number: 7, html_url: 'https://github.test/acme/skills/issues/7' });
    const row = `ccc3333\tNULL\tcrash\t${'@octocat Fixes #1 <img src=x onerror=alert(1)> '.repeat(20)}\t1.000\n`;
    const report = buildCrashParkReport({
      skill: SKILL,
      crashCount: 3,
      lastDescriptions: [HOSTILE.join(' '), 'two', 'three'],
      worktreePath: '/tmp/wt',
      resultsTsv: `commit\tscore\tstatus\tdescription\twall_seconds\n${row.repeat(424_004 / row.length)}`,
      epoch: 1_779_580_800,
    });
    expect(report.body.length).toBeGreaterThan(400_000);
    const forge = createGitHubForge({
      client: createGitHubClient({ token: TOKEN, apiUrl: API, retry: NO_RETRIES }),
      repo: { owner: 'acme', repo: 'skills' },
      log: recordingLog(),
      runUrl: undefined,
      fallback: createLocalForge(checkout),
      keepFullText: async (r) => {
        const name = `park-${r.kind}-${r.epoch}.md`;
        await store.save(
          [{ skill: r.skill, resultsTsv: undefined, lastRun: undefined, files: { [name]: r.body } }],
          'park',
        );
        return `state/${r.skill}/${name} on the skill-iterate-state branch`;
      },
    });

    const outcome = await forge.park(report);
    await store.close();

    expect(outcome).toEqual({ location: 'https://github.test/acme/skills/issues/7', via: 'issue' });
    expect(bodies).toHaveLength(1);
    const body = bodies[0]!;
    expect(body.length).toBeLessThan(65_536);
    expect(body).toMatch(
      /characters were cut to stay under GitHub's 65,535-character limit; the full text is in state\/alpha\/park-crashes-1779580800\.md on the skill-iterate-state branch/,
    );
    expect(liveParts(body.split('\n').slice(1).join('\n'))).toEqual([]);
    const kept = execFileSync(
      'git',
      ['-C', origin, 'show', `skill-iterate-state:state/${SKILL}/park-crashes-1779580800.md`],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    expect(kept).toBe(report.body);
  });
});
