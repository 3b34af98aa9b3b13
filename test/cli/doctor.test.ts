import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { beforeEach, describe, expect, it } from 'vitest';
import { doctorCommand } from '../../src/cli/commands/doctor.js';
import type { CliIo } from '../../src/cli/io.js';
import { closeServer, listenOnLoopback } from '../helpers/local-http.js';
import { anthropicOk, chatCompletion, OPENAI_BAD_KEY } from '../helpers/model-replies.js';
import { strictNock } from '../helpers/nock-frame.js';

interface TestIo extends CliIo {
  stdout: string[];
  stderr: string[];
}

function makeIo(env: NodeJS.ProcessEnv, cwd: string): TestIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    env,
    cwd,
    exitCode: -1,
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
  };
}

/** A clock that advances 250 ms per reading, so latency is deterministic. */
function steppingClock(): () => number {
  let t = 0;
  return () => (t += 250);
}

async function runDoctor(io: TestIo, args: string[] = []): Promise<void> {
  await doctorCommand(io, {
    now: steppingClock(),
    modelOptions: { retryHooks: { sleep: async () => undefined, random: () => 0 } },
  }).parseAsync(args, { from: 'user' });
}

let project: string;

beforeEach(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-doctor-'));
});
strictNock(() => rm(project, { recursive: true, force: true }));

describe('skillclimb doctor', () => {
  it('--project naming a folder that does not exist fails with a clear message', async () => {
    const io = makeIo({ ANTHROPIC_API_KEY: 'sk-ant-never-sent' }, project);
    const missing = path.join(project, 'nonexistent');
    await runDoctor(io, ['--project', missing]);
    expect(io.exitCode).toBe(2);
    expect(io.stderr.join('')).toBe(`doctor: project folder not found: ${missing}`);
    expect(io.stdout).toEqual([]);
  });

  it('says offline plainly and exits 0 when nothing is configured', async () => {
    const io = makeIo({}, project);
    await runDoctor(io);
    expect(io.exitCode).toBe(0);
    expect(io.stdout.join('\n')).toContain('offline for every role');
  });

  it('checks a model shared by all roles with one tiny structured call and prints family and latency', async () => {
    let body: Record<string, unknown> = {};
    nock('https://api.anthropic.com')
      .post('/v1/messages', (b: Record<string, unknown>) => {
        body = b;
        return true;
      })
      .reply(200, anthropicOk());
    const io = makeIo({ ANTHROPIC_API_KEY: 'sk-ant-secret-value' }, project);
    await runDoctor(io);
    expect(io.exitCode).toBe(0);
    // The author (evals init) is the editor's model here: its row shares the one call.
    expect(io.stdout).toHaveLength(4);
    for (const [i, role] of ['editor', 'render', 'grader', 'author'].entries()) {
      expect(io.stdout[i]).toMatch(
        new RegExp(
          `^${role}\\s+anthropic:claude-sonnet-4-5\\s+family=anthropic\\s+ok\\s+250 ms  https://api.anthropic.com/v1 \\(endpoint: default; key: ANTHROPIC_API_KEY; model: default\\)$`,
        ),
      );
    }
    expect((body.output_config as { format: { type: string } }).format.type).toBe('json_schema');
    expect(io.stdout.join('\n') + io.stderr.join('\n')).not.toContain('sk-ant-secret-value');
  });

  it('fails one role on a 401 without retrying, keeps checking the others, and exits 1', async () => {
    nock('https://api.anthropic.com').post('/v1/messages').reply(200, anthropicOk());
    nock('https://api.openai.com').post('/v1/responses').reply(401, OPENAI_BAD_KEY);
    const io = makeIo({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' }, project);
    await runDoctor(io, ['--grader-model', 'openai:gpt-5']);
    expect(io.exitCode).toBe(1);
    expect(io.stdout[0]).toMatch(/^editor .* ok /);
    expect(io.stdout[1]).toMatch(/^render .* ok /);
    expect(io.stdout[2]).toMatch(
      /^grader\s+openai:gpt-5\s+family=openai\s+FAILED\s+request failed: grader model openai:gpt-5: HTTP 401: Incorrect API key provided \(not retried/,
    );
    expect(io.stderr).toEqual(['doctor: 1 of 4 roles failed']);
  });

  it('reports a missing key per role before any call', async () => {
    nock('https://api.anthropic.com').post('/v1/messages').reply(200, anthropicOk());
    const io = makeIo({ ANTHROPIC_API_KEY: 'a' }, project);
    await runDoctor(io, ['--editor-model', 'openai:gpt-5']);
    expect(io.exitCode).toBe(1);
    expect(io.stdout[0]).toMatch(
      /^editor\s+openai:gpt-5\s+family=openai\s+FAILED\s+key: editor model openai:gpt-5 needs OPENAI_API_KEY$/,
    );
    expect(io.stdout[2]).toMatch(/^grader .* ok /);
  });

  it('reports an unreachable endpoint', async () => {
    nock.enableNetConnect('127.0.0.1');
    try {
      const server = createServer();
      const origin = await listenOnLoopback(server);
      await closeServer(server);
      const io = makeIo({ OPENAI_BASE_URL: `${origin}/v1` }, project);
      await runDoctor(io, ['--model', 'openai-compatible:qwen3']);
      expect(io.exitCode).toBe(1);
      expect(io.stdout[0]).toMatch(
        /family=qwen\s+FAILED\s+endpoint unreachable: editor model openai-compatible:qwen3: cannot reach/,
      );
      // One shared call, but each row names its own role.
      expect(io.stdout[1]).toMatch(
        /^render\s+openai-compatible:qwen3\s+family=qwen\s+FAILED\s+endpoint unreachable: render model openai-compatible:qwen3: cannot reach/,
      );
      expect(io.stdout[2]).toMatch(
        /^grader\s+openai-compatible:qwen3\s+family=qwen\s+FAILED\s+endpoint unreachable: grader model openai-compatible:qwen3: cannot reach/,
      );
    } finally {
      nock.disableNetConnect();
    }
  });

  it('passes all three roles against a server that follows a schema only when given one, and prints the mode', async () => {
    const formats: string[] = [];
    nock('http://localhost:11434')
      .post('/v1/chat/completions')
      .reply((_uri, body) => {
        const format = (body as { response_format?: { type: string } }).response_format?.type ?? 'none';
        formats.push(format);
        // Without a schema, the small model chats instead of answering in JSON.
        const text = format === 'json_schema' ? '{"ok": true}' : 'Sure! Here you go: ok = yes';
        return [200, chatCompletion(text, { prompt_tokens: 10, completion_tokens: 5 }, 'qwen3:4b')];
      });
    const io = makeIo({ OPENAI_BASE_URL: 'http://localhost:11434/v1' }, project);
    await runDoctor(io, ['--model', 'openai-compatible:qwen3:4b']);
    expect(io.exitCode).toBe(0);
    expect(formats).toEqual(['json_schema']);
    for (const [i, role] of ['editor', 'render', 'grader'].entries()) {
      expect(io.stdout[i]).toMatch(
        new RegExp(
          `^${role}\\s+openai-compatible:qwen3:4b\\s+family=qwen\\s+ok .* http://localhost:11434/v1 \\(endpoint: environment variable OPENAI_BASE_URL; key: none; model: flag\\)  structured output: json_schema$`,
        ),
      );
    }
  });

  it('says when a server refused json_schema and the check fell back to json_object', async () => {
    const formats: string[] = [];
    const record = (body: { response_format?: { type: string } }) => {
      formats.push(body.response_format?.type ?? 'none');
      return true;
    };
    nock('http://localhost:11434')
      .post('/v1/chat/completions', record)
      .reply(400, {
        error: {
          message: "Invalid value for 'response_format': json_schema is not supported",
          type: 'invalid_request_error',
        },
      })
      .post('/v1/chat/completions', record)
      .reply(200, chatCompletion('{"ok": true}', { prompt_tokens: 10, completion_tokens: 5 }, 'llama3.1'));
    const io = makeIo({ OPENAI_BASE_URL: 'http://localhost:11434/v1' }, project);
    await runDoctor(io, ['--model', 'openai-compatible:llama3.1']);
    expect(io.exitCode).toBe(0);
    expect(formats).toEqual(['json_schema', 'json_object']);
    expect(io.stdout[2]).toMatch(
      /^grader .* ok .*\(endpoint: environment variable OPENAI_BASE_URL; key: none; model: flag\) {2}structured output: json_object \(fell back: json_schema refused: HTTP 400: Invalid value for 'response_format': json_schema is not supported\)$/,
    );
  });

  it('uses the mode --structured-output forces, over the config file', async () => {
    await writeFile(
      path.join(project, 'skillclimb.config.json'),
      JSON.stringify({ openaiCompatible: { structuredOutput: 'json_object' } }),
    );
    const formats: string[] = [];
    const reply = () =>
      [200, chatCompletion('{"ok": true}', { prompt_tokens: 1, completion_tokens: 1 }, 'm')] as const;
    nock('http://localhost:11434')
      .post('/v1/chat/completions', (body: { response_format?: { type: string } }) => {
        formats.push(body.response_format?.type ?? 'none');
        return true;
      })
      .times(2)
      .reply(reply);
    const fromConfig = makeIo({ OPENAI_BASE_URL: 'http://localhost:11434/v1' }, project);
    await runDoctor(fromConfig, ['--model', 'openai-compatible:m']);
    const fromFlag = makeIo({ OPENAI_BASE_URL: 'http://localhost:11434/v1' }, project);
    await runDoctor(fromFlag, ['--model', 'openai-compatible:m', '--structured-output', 'text']);
    expect(formats).toEqual(['json_object', 'none']);
    expect(fromConfig.stdout[0]).toMatch(/structured output: json_object \(forced\)$/);
    expect(fromFlag.stdout[0]).toMatch(/structured output: text \(forced\)$/);
  });

  it('fails a server that answers without the JSON it was asked for', async () => {
    nock('http://localhost:11434')
      .post('/v1/chat/completions')
      .reply(
        200,
        chatCompletion('Hello! How can I help?', { prompt_tokens: 10, completion_tokens: 5 }, 'llama3.1'),
      );
    const io = makeIo({ OPENAI_BASE_URL: 'http://localhost:11434/v1' }, project);
    await runDoctor(io, ['--model', 'openai-compatible:llama3.1']);
    expect(io.exitCode).toBe(1);
    // The render row shares the editor's call but names itself (it used to say "editor answer unusable").
    expect(io.stdout[1]).toMatch(
      /^render\s+.*family=meta\s+FAILED\s+structured call failed: render answer unusable: no JSON object/,
    );
    expect(io.stdout[2]).toMatch(
      /^grader\s+.*family=meta\s+FAILED\s+structured call failed: grader answer unusable: no JSON object/,
    );
  });

  it('reads the models from skillclimb.config.json in --project', async () => {
    await writeFile(
      path.join(project, 'skillclimb.config.json'),
      JSON.stringify({
        models: { default: 'offline', grader: 'offline', editor: 'anthropic:claude-haiku-4-5' },
      }),
    );
    nock('https://api.anthropic.com').post('/v1/messages').reply(200, anthropicOk());
    const io = makeIo({ ANTHROPIC_API_KEY: 'a' }, os.tmpdir());
    await runDoctor(io, ['--project', project]);
    expect(io.exitCode).toBe(0);
    expect(io.stdout[0]).toMatch(
      /^editor\s+anthropic:claude-haiku-4-5\s+family=anthropic\s+ok .*\(endpoint: default; key: ANTHROPIC_API_KEY; model: config\)$/,
    );
    expect(io.stdout[1]).toMatch(
      /^render\s+offline\s+family=unknown\s+ok\s+offline \(no model call; model: config\)$/,
    );
  });

  it('says where each endpoint came from: an environment variable, the trusted config file or the default', async () => {
    nock('https://proxy.example.com').post('/v1/messages').reply(200, anthropicOk());
    const fromEnv = makeIo(
      { ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: 'https://proxy.example.com' },
      project,
    );
    await runDoctor(fromEnv);
    expect(fromEnv.exitCode).toBe(0);
    expect(fromEnv.stdout[0]).toMatch(
      /^editor\s+anthropic:claude-sonnet-4-5\s+family=anthropic\s+ok\s+250 ms {2}https:\/\/proxy\.example\.com\/v1 \(endpoint: environment variable ANTHROPIC_BASE_URL; key: ANTHROPIC_API_KEY; model: default\)$/,
    );

    await writeFile(
      path.join(project, 'skillclimb.config.json'),
      JSON.stringify({ endpoints: { anthropic: 'https://gateway.example.com' } }),
    );
    nock('https://gateway.example.com').post('/v1/messages').reply(200, anthropicOk());
    const fromConfig = makeIo({ ANTHROPIC_API_KEY: 'a', SKILLCLIMB_TRUST_CONFIG_ENDPOINTS: '1' }, project);
    await runDoctor(fromConfig, ['--model', 'anthropic:claude-haiku-4-5']);
    expect(fromConfig.exitCode).toBe(0);
    expect(fromConfig.stdout[2]).toMatch(
      /^grader\s+anthropic:claude-haiku-4-5\s+family=anthropic\s+ok .* https:\/\/gateway\.example\.com\/v1 \(endpoint: skillclimb\.config\.json endpoints\.anthropic; key: ANTHROPIC_API_KEY; model: flag\)$/,
    );
  });

  it('names where a failing endpoint was set', async () => {
    const io = makeIo({ ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: 'https://stale.example.com' }, project);
    nock('https://stale.example.com').post('/v1/messages').reply(404, { error: 'no such route' });
    await runDoctor(io);
    expect(io.exitCode).toBe(1);
    expect(io.stdout[0]).toMatch(
      /FAILED .* \(endpoint https:\/\/stale\.example\.com\/v1: environment variable ANTHROPIC_BASE_URL; key: ANTHROPIC_API_KEY\)$/,
    );
  });

  it('exits 2 on a bad config file or a bad model id', async () => {
    await writeFile(path.join(project, 'skillclimb.config.json'), '{"models": {"grader": "gpt-5"}}');
    const badConfig = makeIo({}, project);
    await runDoctor(badConfig);
    expect(badConfig.exitCode).toBe(2);
    expect(badConfig.stderr[0]).toContain('skillclimb.config.json: models.grader: model id "gpt-5"');

    const badFlag = makeIo({}, os.tmpdir());
    await runDoctor(badFlag, ['--render-model', 'llama3']);
    expect(badFlag.exitCode).toBe(2);
    expect(badFlag.stderr[0]).toBe(
      'doctor: render model: model id "llama3": expected provider:model, e.g. anthropic:claude-sonnet-4-5, openai:gpt-5, openai-compatible:qwen3 or offline',
    );
  });
});

describe('skillclimb doctor, role combinations', () => {
  it('exits 2 when render and grader disagree on being offline', async () => {
    const io = makeIo({ OPENAI_API_KEY: 'o' }, project);
    await runDoctor(io, ['--model', 'openai:gpt-5', '--render-model', 'offline']);
    expect(io.exitCode).toBe(2);
    expect(io.stderr[0]).toBe(
      'doctor: render model offline and grader model openai:gpt-5: both must be offline or both real models',
    );
  });
});

describe('skillclimb doctor, secrets', () => {
  it('never prints a key the provider echoes in its error body', async () => {
    const key = 'plain-doctor-secret-0123456789';
    nock('https://api.anthropic.com')
      .post('/v1/messages')
      .times(2)
      .reply(500, { type: 'error', error: { type: 'api_error', message: `upstream rejected ${key}` } });
    const io = makeIo({ ANTHROPIC_API_KEY: key }, project);
    await runDoctor(io);
    expect(io.exitCode).toBe(1);
    const printed = io.stdout.join('\n') + io.stderr.join('\n');
    expect(printed).toContain('upstream rejected [redacted]');
    expect(printed).not.toContain(key);
  });

  it('warns once and ignores config endpoints without SKILLCLIMB_TRUST_CONFIG_ENDPOINTS=1', async () => {
    await writeFile(
      path.join(project, 'skillclimb.config.json'),
      JSON.stringify({ endpoints: { anthropic: 'https://attacker.example.com' } }),
    );
    nock('https://api.anthropic.com').post('/v1/messages').reply(200, anthropicOk());
    const io = makeIo({ ANTHROPIC_API_KEY: 'sk-ant-secret-value' }, project);
    await runDoctor(io);
    expect(io.exitCode).toBe(0);
    expect(io.stdout[0]).toContain('https://api.anthropic.com/v1');
    expect(io.stderr.filter((line) => line.includes('endpoints.anthropic ignored'))).toHaveLength(1);
  });
});

describe('skillclimb doctor, the evals author', () => {
  it('fails naming the key when models.author is set and its key is missing, though every night role is offline', async () => {
    await writeFile(
      path.join(project, 'skillclimb.config.json'),
      JSON.stringify({ models: { author: 'anthropic:claude-haiku-4-5' } }),
    );
    const io = makeIo({}, project);
    await runDoctor(io);
    expect(io.exitCode).toBe(1);
    expect(io.stdout.join('\n')).not.toContain('nothing to check');
    expect(io.stdout[0]).toMatch(/^editor\s+offline\s+family=unknown\s+ok\s+offline/);
    expect(io.stdout[3]).toMatch(
      /^author\s+anthropic:claude-haiku-4-5\s+family=anthropic\s+FAILED\s+key: author model anthropic:claude-haiku-4-5 needs ANTHROPIC_API_KEY$/,
    );
    expect(io.stderr).toEqual(['doctor: 1 of 4 roles failed']);
  });

  it('checks --author-model on its own endpoint with its own key, and says which each role uses', async () => {
    nock('https://api.anthropic.com').post('/v1/messages').reply(200, anthropicOk());
    let authorCalls = 0;
    nock('http://localhost:11434')
      .post('/v1/chat/completions')
      .reply(200, () => {
        authorCalls++;
        return chatCompletion('{"ok": true}', { prompt_tokens: 10, completion_tokens: 5 }, 'qwen3:4b');
      });
    const io = makeIo(
      { ANTHROPIC_API_KEY: 'sk-ant-a', OPENAI_BASE_URL: 'http://localhost:11434/v1' },
      project,
    );
    await runDoctor(io, ['--author-model', 'openai-compatible:qwen3:4b']);
    expect(io.exitCode).toBe(0);
    expect(authorCalls).toBe(1);
    expect(io.stdout[0]).toMatch(
      /^editor\s+anthropic:claude-sonnet-4-5\s+.* ok .*https:\/\/api\.anthropic\.com\/v1 \(endpoint: default; key: ANTHROPIC_API_KEY; model: default\)$/,
    );
    expect(io.stdout[3]).toMatch(
      /^author\s+openai-compatible:qwen3:4b\s+family=qwen\s+ok .* http:\/\/localhost:11434\/v1 \(endpoint: environment variable OPENAI_BASE_URL; key: none; model: flag\)/,
    );
  });

  it('says plainly that an offline author cannot write evals, without failing a night that needs none', async () => {
    nock('https://api.anthropic.com').post('/v1/messages').reply(200, anthropicOk());
    const io = makeIo({ ANTHROPIC_API_KEY: 'sk-ant-a' }, project);
    await runDoctor(io, ['--author-model', 'offline']);
    expect(io.exitCode).toBe(0);
    expect(io.stdout[3]).toMatch(
      /^author\s+offline\s+family=unknown\s+--\s+offline: evals init cannot write eval files with it \(pass --author-model provider:model/,
    );
  });
});
