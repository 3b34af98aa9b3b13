/**
 * The Action's pipeline (src/action/main.ts) and its models: the doctor checks run first and a failing
 * model fails the job before any GitHub call or push; skillclimb.config.json gives the models (the model
 * inputs override it) and mode, concurrency and budget; dry-run and plan call no model.
 * GitHub is nock at https://api.github.test; models are nock or a node:http server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActionContext } from '../../src/action/context.js';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import { runPipeline } from '../../src/action/main.js';
import { iterateOptions } from '../../src/action/options.js';
import { CONFIG_FILE } from '../../src/config/config.js';
import {
  cleanupTempDirs,
  git,
  GITHUB_API as API,
  makeRemote,
  nightContext,
} from '../helpers/github-fixtures.js';
import { closeServer, listenOnLoopback, readBody } from '../helpers/local-http.js';
import { anthropicOk, chatCompletion, OPENAI_BAD_KEY } from '../helpers/model-replies.js';
import { messageOf } from '../../src/core/errors.js';
import { recordingIo } from '../helpers/action-io.js';
import { VALID_EVALS, VALID_SCENARIOS } from '../helpers/skill-project.js';

const TOKEN = 'ghs_pipelineTestToken';

/** Every request the pipeline sends to the GitHub API, answered 404 (a GitHub that knows nothing). */
function fakeGitHub(events: string[]): string[] {
  const requests: string[] = [];
  const scope = nock(API).persist();
  const record = (method: string) =>
    function (uri: string): [number, unknown] {
      requests.push(`${method} ${uri}`);
      events.push(`github ${method} ${uri}`);
      return [404, { message: 'Not Found' }];
    };
  scope.get(/.*/).reply(record('GET'));
  scope.post(/.*/).reply(record('POST'));
  scope.patch(/.*/).reply(record('PATCH'));
  scope.put(/.*/).reply(record('PUT'));
  scope.delete(/.*/).reply(record('DELETE'));
  return requests;
}

/** An OpenAI-compatible server that answers every chat completion with `{"ok": true}`. */
class CompatibleServer {
  readonly requests: Array<{ path: string; model: string }> = [];
  private server: Server;
  constructor(private readonly events: string[]) {
    this.server = createServer((req, res) => {
      void readBody(req).then((text) => {
        const body = JSON.parse(text) as { model: string };
        this.requests.push({ path: req.url ?? '', model: body.model });
        this.events.push(`model ${req.url}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            chatCompletion('{"ok": true}', { prompt_tokens: 10, completion_tokens: 5 }, body.model),
          ),
        );
      });
    });
  }
  async start(): Promise<string> {
    return `${await listenOnLoopback(this.server)}/v1`;
  }
  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

const SKILL_FILES = {
  '.claude/skills/demo/SKILL.md': '---\nname: demo\ndescription: test skill\n---\n# Demo\n',
  '.claude/skills/demo/evals/evals.json': VALID_EVALS,
  '.claude/skills/demo/evals/test_scenarios.json': VALID_SCENARIOS,
};

interface Night {
  origin: string;
  checkout: string;
  ctx: ActionContext;
}

/** A checkout with one scorable skill whose origin is a local bare repository; `env` is the runner's. */
async function night(config?: unknown, env: NodeJS.ProcessEnv = {}): Promise<Night> {
  const files: Record<string, string> = { ...SKILL_FILES };
  if (config !== undefined) files[CONFIG_FILE] = JSON.stringify(config);
  const { origin, checkout } = await makeRemote(files, { checkout: 'actions' });
  const ctx = await nightContext(checkout, env);
  return { origin, checkout, ctx };
}

function inputs(values: Partial<Record<ActionInputName, string>>) {
  return parseInputs((name) => ({ 'github-token': TOKEN, ...values })[name] ?? '');
}

const events: string[] = [];
const compatible = new CompatibleServer(events);
let compatibleUrl = '';

beforeAll(async () => {
  compatibleUrl = await compatible.start();
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(async () => {
  nock.cleanAll();
  compatible.requests.length = 0;
  events.length = 0;
  await cleanupTempDirs();
});
afterAll(async () => {
  nock.enableNetConnect();
  await compatible.stop();
});

describe('the Action checks the models first', () => {
  it('fails the job naming the role and model on a 401, with no GitHub call, no push, no summary', async () => {
    const github = fakeGitHub(events);
    nock('https://api.anthropic.com').post('/v1/messages').reply(200, anthropicOk());
    nock('https://api.openai.com').post('/v1/responses').reply(401, OPENAI_BAD_KEY);
    const { origin, checkout, ctx } = await night();
    const refsBefore = git(origin, 'for-each-ref');
    const io = recordingIo();

    const run = runPipeline(
      inputs({
        model: 'anthropic:claude-sonnet-4-5',
        'grader-model': 'openai:gpt-5',
        'anthropic-api-key': 'sk-ant-test',
        'openai-api-key': 'sk-openai-test',
      }),
      ctx,
      io,
    );

    await expect(run).rejects.toThrow(
      /^model check failed for grader model openai:gpt-5 \(request failed: HTTP 401: Incorrect API key provided \(not retried; check OPENAI_API_KEY\)\); nothing was run/,
    );
    expect(github).toEqual([]);
    expect(git(origin, 'for-each-ref')).toBe(refsBefore);
    expect(git(checkout, 'status', '--porcelain')).toBe('');
    expect(io.summaries).toEqual([]);
    expect(io.groups).toEqual(['start skillclimb doctor: model checks', 'end']);
    expect(io.log.infos[0]).toMatch(
      /^editor\s+anthropic:claude-sonnet-4-5\s+family=anthropic\s+ok .*\(endpoint: default; key: ANTHROPIC_API_KEY; model: flag\)$/,
    );
    expect(io.log.infos[2]).toMatch(/^grader\s+openai:gpt-5\s+family=openai\s+FAILED\s+request failed: /);
    expect(io.log.infos.join('\n')).not.toContain('sk-openai-test');
    expect(nock.pendingMocks().filter((m) => !m.includes('api.github.test'))).toEqual([]);
  });

  it("logs a retried health call against the check's own two attempts", async () => {
    fakeGitHub(events);
    nock('https://api.anthropic.com')
      .post('/v1/messages')
      .reply(
        529,
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        { 'retry-after-ms': '10' },
      )
      .post('/v1/messages')
      .reply(200, anthropicOk());
    const { ctx } = await night();
    const io = recordingIo();
    await expect(
      runPipeline(
        inputs({ model: 'anthropic:claude-haiku-4-5', 'anthropic-api-key': 'sk-ant-test' }),
        ctx,
        io,
      ),
    ).rejects.toThrow('could not read acme/skills to find its default branch (HTTP 404');
    expect(io.log.warnings).toEqual(['retrying in 10 ms (attempt 2 of 2): HTTP 529: Overloaded']);
    expect(io.log.infos.slice(0, 3).every((line) => /\sok\s/.test(line))).toBe(true);
  });

  it('fails on a missing key the same way, before any model or GitHub call', async () => {
    const github = fakeGitHub(events);
    const { ctx } = await night({ models: { grader: 'anthropic:claude-haiku-4-5', render: 'openai:gpt-5' } });
    const io = recordingIo();
    await expect(runPipeline(inputs({ 'openai-api-key': 'o' }), ctx, io)).rejects.toThrow(
      /model check failed for .*grader model anthropic:claude-haiku-4-5 \(key: needs ANTHROPIC_API_KEY\)/,
    );
    expect(github).toEqual([]);
  });
});

describe('the Action reads skillclimb.config.json', () => {
  it('checks and uses the config models (through a local OpenAI-compatible server) before GitHub', async () => {
    const github = fakeGitHub(events);
    const { ctx } = await night({ models: { default: 'openai-compatible:qwen3' } });
    const io = recordingIo();

    // GitHub answers 404 to everything, so the night stops at the default-branch lookup.
    await expect(runPipeline(inputs({ 'openai-base-url': compatibleUrl }), ctx, io)).rejects.toThrow(
      'could not read acme/skills to find its default branch (HTTP 404',
    );
    // One shared health call for the three roles, then GitHub.
    expect(compatible.requests).toEqual([{ path: '/v1/chat/completions', model: 'qwen3' }]);
    expect(events[0]).toBe('model /v1/chat/completions');
    expect(events.slice(1)).toEqual(['github GET /repos/acme/skills']);
    expect(github).toHaveLength(1);
    for (const [i, role] of ['editor', 'render', 'grader'].entries()) {
      expect(io.log.infos[i]).toMatch(
        new RegExp(
          `^${role}\\s+openai-compatible:qwen3\\s+family=qwen\\s+ok .* ${compatibleUrl} \\(endpoint: environment variable OPENAI_BASE_URL; key: none; model: config\\)  structured output: json_schema$`,
        ),
      );
    }
    expect(io.log.infos).toContain(
      'models: editor=openai-compatible:qwen3 render=openai-compatible:qwen3 grader=openai-compatible:qwen3',
    );
  });

  it('lets the model inputs override the config: offline inputs skip the checks', async () => {
    fakeGitHub(events);
    const { ctx } = await night({ models: { default: 'openai-compatible:qwen3' } });
    const io = recordingIo();
    await expect(
      runPipeline(inputs({ model: 'offline', 'openai-base-url': compatibleUrl }), ctx, io),
    ).rejects.toThrow('could not read acme/skills');
    expect(compatible.requests).toEqual([]);
    expect(io.groups).toEqual([]);
    expect(io.log.infos[0]).toMatch(/^models: offline \(structural scoring only/);
  });

  it('fails naming the file and field on a bad config, before any call', async () => {
    const github = fakeGitHub(events);
    const { checkout, ctx } = await night({ models: { default: 'offline' }, concurrency: 0 });
    await expect(runPipeline(inputs({}), ctx, recordingIo())).rejects.toThrow(
      `${path.join(checkout, CONFIG_FILE)}: concurrency: `,
    );
    expect(github).toEqual([]);
  });

  it('takes mode, concurrency and max-cost-usd from the config unless an input gives them', async () => {
    const { ctx } = await night();
    const config = { mode: 'structural' as const, concurrency: 2, maxCostUsd: 3 };
    expect(iterateOptions(inputs({}), ctx, config)).toMatchObject({
      mode: 'structural',
      concurrency: 2,
      maxCostUsd: 3,
    });
    expect(iterateOptions(inputs({ 'max-cost-usd': '7.5' }), ctx, config).maxCostUsd).toBe(7.5);
    expect(iterateOptions(inputs({}), ctx)).toMatchObject({
      mode: 'composite',
      concurrency: 32,
      maxCostUsd: undefined,
    });
  });
});

describe('dry-run and plan call no model', () => {
  it.each([
    ['dry-run', { 'dry-run': 'true' }],
    ['plan', { mode: 'plan' }],
  ])('%s with a real model configured', async (_name, extra) => {
    const github = fakeGitHub(events);
    const { ctx } = await night({ models: { default: 'openai-compatible:qwen3' } });
    const io = recordingIo();
    const result = await runPipeline(inputs({ ...extra, 'openai-base-url': compatibleUrl }), ctx, io);
    expect(result.failure).toBeUndefined();
    expect(JSON.parse(result.outputs.queue)).toEqual(['demo']);
    expect(compatible.requests).toEqual([]);
    // The plan reads the dashboard issue's orders (a GET); nothing else reaches GitHub.
    expect(github.filter((r) => !r.startsWith('GET /repos/acme/skills/issues?'))).toEqual([]);
    expect(io.groups).toEqual([]);
  });
});

describe('dry-run validates the models like the night, without a call', () => {
  /** The night's rejection and the dry run's, on the same checkout and inputs. */
  async function bothRejections(
    checkout: Night,
    values: Partial<Record<ActionInputName, string>>,
  ): Promise<{ nightly: string; dry: string }> {
    const reason = (run: Promise<unknown>) =>
      run.then(
        () => 'resolved',
        (error: unknown) => messageOf(error),
      );
    const nightly = await reason(runPipeline(inputs(values), checkout.ctx, recordingIo()));
    const dry = await reason(
      runPipeline(inputs({ ...values, 'dry-run': 'true' }), checkout.ctx, recordingIo()),
    );
    return { nightly, dry };
  }

  it("fails on a bad config with the night's message naming the file and field", async () => {
    const github = fakeGitHub(events);
    const checkout = await night({ models: { default: 'offline' }, concurrency: 0 });
    const { nightly, dry } = await bothRejections(checkout, {});
    expect(dry).toBe(`${path.join(checkout.checkout, CONFIG_FILE)}: concurrency: expected number to be >=1`);
    expect(dry).toBe(nightly);
    expect(github).toEqual([]);
  });

  it("fails on a missing key with the night's message, calling no model and no GitHub API", async () => {
    const github = fakeGitHub(events);
    const checkout = await night();
    const { nightly, dry } = await bothRejections(checkout, { model: 'anthropic:claude-haiku-4-5' });
    expect(dry).toBe(
      'model check failed for editor model anthropic:claude-haiku-4-5 (key: needs ANTHROPIC_API_KEY); ' +
        'render model anthropic:claude-haiku-4-5 (key: needs ANTHROPIC_API_KEY); ' +
        'grader model anthropic:claude-haiku-4-5 (key: needs ANTHROPIC_API_KEY); ' +
        'nothing was run (check the key, endpoint and model id)',
    );
    expect(dry).toBe(nightly);
    expect(github).toEqual([]);
    expect(nock.pendingMocks().filter((m) => !m.includes('api.github.test'))).toEqual([]);
  });

  it("fails on a bad model id with the night's message", async () => {
    const github = fakeGitHub(events);
    const checkout = await night();
    const { nightly, dry } = await bothRejections(checkout, { 'grader-model': 'gpt-5' });
    expect(dry).toBe(
      'grader model: model id "gpt-5": expected provider:model, e.g. anthropic:claude-sonnet-4-5, openai:gpt-5, openai-compatible:qwen3 or offline',
    );
    expect(dry).toBe(nightly);
    expect(github).toEqual([]);
  });

  it('with the keys present, names the models and prints the plan', async () => {
    const github = fakeGitHub(events);
    const { ctx } = await night({ models: { default: 'anthropic:claude-haiku-4-5' } });
    const io = recordingIo();
    const result = await runPipeline(
      inputs({ 'dry-run': 'true', 'anthropic-api-key': 'sk-ant-never-sent' }),
      ctx,
      io,
    );
    expect(result.failure).toBeUndefined();
    expect(io.log.infos[0]).toBe(
      'models: editor=anthropic:claude-haiku-4-5 render=anthropic:claude-haiku-4-5 grader=anthropic:claude-haiku-4-5',
    );
    expect(io.log.infos[1]).toMatch(/^Resolved queue \(1 skill\):\n {2}demo\n/);
    expect(JSON.parse(result.outputs.queue)).toEqual(['demo']);
    expect(github).toEqual([]);
    expect(io.groups).toEqual([]);
  });
});
