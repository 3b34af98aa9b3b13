/**
 * Acceptance: `skillclimb iterate --model openai-compatible:anything` with OPENAI_BASE_URL pointing at an
 * OpenAI-compatible server runs the whole loop (render → grade → brainstorm → keep → ship) through it.
 * The server is a node:http server on 127.0.0.1 answering scripted Chat Completions over real HTTP.
 * The same scripted model then runs the loop through the Anthropic Messages API, served by nock.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { parseResultsTsv } from '../../src/core/iterate/results-tsv.js';
import { closeServer, listenOnLoopback, readBody } from '../helpers/local-http.js';
import { anthropicMessage, chatCompletion } from '../helpers/model-replies.js';

const EXAMPLE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'workspace');
const SKILL = '.claude/skills/session-wrap/SKILL.md';

const TARGET_OLD = '5. Write the note in the output format below.';
const TARGET_NEW = '5. Write the note in the output format below. Make the Next step one concrete command.';
const SIMPLIFY_OLD = 'Skip the note for a single quick question; a one-line answer needs no handoff.\n\n';

function note(nextStep: string): string {
  return [
    '## Summary',
    'This session fixed most of the flaky login test and left one failure open.',
    '',
    '## Changes',
    '- src/auth/session.ts: skip the token refresh when the token is younger than 60 seconds',
    '',
    '## Open threads',
    '- "TimeoutError: waiting for selector" still fails 2 of 50 runs (unexplained)',
    '',
    '## Next step',
    nextStep,
  ].join('\n');
}

type Role = 'editor' | 'render' | 'grader';

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
}

function contentText(content: ChatBody['messages'][number]['content']): string {
  return typeof content === 'string' ? content : content.map((p) => p.text ?? '').join('');
}

function chatAnswer(body: ChatBody): { role: Role; content: string } {
  const system = body.messages.find((m) => m.role === 'system');
  const systemText = system ? contentText(system.content) : '';
  return answer(systemText, contentText(body.messages.find((m) => m.role === 'user')?.content ?? ''), true);
}

/** The scripted model: improves the SKILL.md once, then simplifies it; grades assertion 3 on a marker. */
function answer(systemText: string, user: string, fenced: boolean): { role: Role; content: string } {
  if (systemText.startsWith('You are a strict editor')) {
    const edit = systemText.includes('Your job is to SIMPLIFY')
      ? {
          description:
            'Drop the quick-question aside; this is a simplification-mode edit; no failing assertion to target.',
          old_string: SIMPLIFY_OLD,
          new_string: '',
        }
      : {
          description: 'Ask for one concrete next command (pair 1/scenario_1 keeps its headings untouched)',
          old_string: TARGET_OLD,
          new_string: TARGET_NEW,
        };
    const json = JSON.stringify(edit);
    return { role: 'editor', content: fenced ? `Here is my proposal:\n\`\`\`json\n${json}\n\`\`\`` : json };
  }
  if (systemText.startsWith('You are a strict, impartial grader')) {
    const ids = /Assertions to grade \(ids: ([\d, ]+)\)/.exec(user)?.[1]?.split(', ') ?? [];
    const vague = user.includes('NEXT-VAGUE');
    const verdicts = Object.fromEntries(
      ids.map((id) => [
        id,
        { verdict: id === '3' ? !vague : true, reason: id === '3' && vague ? 'vague next step' : 'holds' },
      ]),
    );
    return { role: 'grader', content: JSON.stringify({ verdicts }) };
  }
  const concrete = systemText.includes('one concrete command');
  return {
    role: 'render',
    content: note(
      concrete
        ? 'Run `npm test -- login` and read the trace of the failing run.'
        : 'Keep debugging NEXT-VAGUE.',
    ),
  };
}

let server: Server;
let baseUrl: string;
const served: Array<{ path: string; role: Role; model: string }> = [];

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  server = createServer((req, res) => {
    void (async () => {
      const body = JSON.parse(await readBody(req)) as ChatBody;
      const { role, content } = chatAnswer(body);
      served.push({ path: req.url ?? '', role, model: body.model });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(chatCompletion(content, { prompt_tokens: 100, completion_tokens: 20 }, body.model)),
      );
    })();
  });
  baseUrl = `${await listenOnLoopback(server)}/v1`;
});

afterAll(async () => {
  await closeServer(server);
  nock.enableNetConnect();
});

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
}

interface RunOutcome {
  code: number;
  stdout: string;
  stderr: string;
  rows: ReturnType<typeof parseResultsTsv>;
  shipped: string;
  lastCommit: string;
  summary: string;
}

/** A temporary git copy of examples/workspace, then `skillclimb iterate` on session-wrap with `model`. */
async function iterateExample(model: string, extraEnv: NodeJS.ProcessEnv): Promise<RunOutcome> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-iterate-models-'));
  try {
    const project = path.join(tmp, 'project');
    const home = path.join(tmp, 'home');
    await cp(EXAMPLE, project, { recursive: true });
    await mkdir(home);
    await writeFile(path.join(project, '.gitignore'), 'results.tsv\n.skill-iterate.lock\ndocs/\n');
    git(project, 'init', '-q', '-b', 'main');
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'initial');

    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of [
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_BASE_URL',
      'SKILLCLIMB_PRICES',
    ]) {
      delete env[name];
    }
    Object.assign(env, extraEnv);
    const stdout: string[] = [];
    const stderr: string[] = [];
    const io: CliIo = { out: (t) => stdout.push(t), err: (t) => stderr.push(t), env, cwd: tmp, exitCode: 0 };
    const args = ['--skill', 'session-wrap', '--model', model, '--per-skill-iterations', '2'];
    const code = await main(['iterate', '--project', project, ...args, '--worktree-home', home], io);
    const runs = path.join(project, 'docs', 'skill-iterate-runs');
    const summaryFile = (await readdir(runs).catch(() => [] as string[]))[0];
    return {
      code,
      stdout: stdout.join(''),
      stderr: stderr.join(''),
      rows: parseResultsTsv(
        await readFile(path.join(project, '.claude/skills/session-wrap/evals/results.tsv'), 'utf8'),
      ),
      shipped: await readFile(path.join(project, SKILL), 'utf8'),
      lastCommit: git(project, 'log', '-1', '--format=%s'),
      summary: summaryFile ? await readFile(path.join(runs, summaryFile), 'utf8') : '',
    };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Iteration 1 fixes the vague next step (keep); iteration 2 is a simplification (kept or not, by score). */
function expectKeepAndShip(run: RunOutcome): void {
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.code).toBe(0);
  expect(run.rows.map((r) => r.status).slice(0, 2)).toEqual(['baseline', 'keep']);
  expect(run.rows).toHaveLength(3);
  expect(run.rows[1]!.score!).toBeGreaterThan(run.rows[0]!.score!);
  expect(run.rows[1]!.description).toContain('one concrete next command');
  expect(run.rows[2]!.description).toContain('this is a simplification-mode edit');
  // the squash landed on main with the kept edit
  expect(run.shipped).toContain(TARGET_NEW);
  expect(run.lastCommit).toMatch(/^skill-iterate: session-wrap: baseline /);
}

describe('skillclimb iterate through an OpenAI-compatible server', () => {
  it('runs render → grade → brainstorm → keep and ships the improved SKILL.md', async () => {
    served.length = 0;
    const run = await iterateExample('openai-compatible:anything', { OPENAI_BASE_URL: baseUrl });
    expectKeepAndShip(run);
    expect(run.stdout).toContain(
      'models: editor=openai-compatible:anything render=openai-compatible:anything',
    );
    expect(new Set(served.map((s) => s.role))).toEqual(new Set(['editor', 'render', 'grader']));
    expect(served.every((s) => s.path === '/v1/chat/completions' && s.model === 'anything')).toBe(true);
  }, 120_000);
});

interface AnthropicBody {
  model: string;
  system?: Array<{ type: 'text'; text: string; cache_control?: { type: string } }>;
  messages: Array<{
    role: string;
    content: Array<{ type: string; text?: string; cache_control?: { type: string } }>;
  }>;
}

describe('skillclimb iterate through the Anthropic Messages API (nock)', () => {
  it('keeps and ships, with prompt caching on renders and the cost in the morning summary', async () => {
    const roles: Role[] = [];
    const cachedSystems: string[] = [];
    const cachedPrefixes: Array<{ role: Role; text: string }> = [];
    const seenSystems = new Set<string>();
    let systemCalls = 0;
    nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': 'sk-ant-test' } })
      .post('/v1/messages')
      .times(200)
      .reply((_uri, raw) => {
        const body = raw as AnthropicBody;
        const system = body.system?.map((b) => b.text).join('') ?? '';
        if (body.system?.[0]?.cache_control?.type === 'ephemeral') cachedSystems.push(system);
        const user = body.messages[0]!.content.map((p) => p.text ?? '').join('');
        const { role, content } = answer(system, user, false);
        roles.push(role);
        const first = body.messages[0]!.content[0];
        if (first?.cache_control?.type === 'ephemeral') cachedPrefixes.push({ role, text: first.text ?? '' });
        // the first call with a system prompt writes the cache, later ones read it
        const cached = system !== '' && seenSystems.has(system);
        if (system !== '') seenSystems.add(system);
        if (system !== '') systemCalls++;
        return [
          200,
          anthropicMessage([{ type: 'text', text: content }], {
            input_tokens: 100,
            output_tokens: 20,
            cache_creation_input_tokens: system !== '' && !cached ? 1000 : 0,
            cache_read_input_tokens: cached ? 1000 : 0,
          }),
        ];
      });
    try {
      const run = await iterateExample('anthropic:claude-sonnet-4-5', { ANTHROPIC_API_KEY: 'sk-ant-test' });
      expectKeepAndShip(run);
      expect(new Set(roles)).toEqual(new Set(['editor', 'render', 'grader']));
      // every call marks its fixed instructions (or, for a render, the SKILL.md) for caching
      expect(cachedSystems.length).toBe(roles.length);
      // and the editor and the grader also their user message's stable start: the SKILL.md, the scenario
      const prefixRoles = cachedPrefixes.map((p) => p.role);
      expect(prefixRoles.filter((r) => r === 'editor')).toHaveLength(
        roles.filter((r) => r === 'editor').length,
      );
      expect(prefixRoles.filter((r) => r === 'grader')).toHaveLength(
        roles.filter((r) => r === 'grader').length,
      );
      expect(prefixRoles).not.toContain('render');
      expect(cachedPrefixes.find((p) => p.role === 'editor')?.text).toMatch(
        /^Current SKILL\.md:\n<<<SKILL_MD\n/,
      );
      expect(cachedPrefixes.find((p) => p.role === 'grader')?.text).toContain('SCENARIO (untrusted data)');
      expect(run.summary).toMatch(/Estimated cost: \$\d/);
      expect(run.summary).toMatch(/cache read [\d,]+/);
      // The served usage, summed: the total counts cache reads and writes, as the progress lines do.
      const n = (value: number) => value.toLocaleString('en-US');
      const input = 100 * roles.length;
      const output = 20 * roles.length;
      const cacheWrite = 1000 * seenSystems.size;
      const cacheRead = 1000 * (systemCalls - seenSystems.size);
      expect(cacheRead).toBeGreaterThan(0);
      expect(run.summary).toContain(
        `- Tokens: ${n(input + output + cacheRead + cacheWrite)} (input ${n(input)}, output ${n(output)}, ` +
          `cache read ${n(cacheRead)}, cache write ${n(cacheWrite)}) over ${roles.length} model calls\n`,
      );
    } finally {
      nock.cleanAll();
    }
  }, 120_000);
});
