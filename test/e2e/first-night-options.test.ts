/**
 * The first night of test/e2e/first-night.test.ts, with the options an operator types that change what a
 * pasted command does (issue 29 item 6): `--model` and `--calibrate` on the first command. Every printed
 * command is pasted as printed and must carry them where the command accepts them: the layout hint, each
 * skill's `evals init` (the author then runs on the typed model, seen in the requests), the plan that
 * prints, the freshness line of the next night (which passes the window, keeps `--calibrate` and runs).
 * A model error names the base-URL variable it sees. Model answers are served by nock; git is real.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { releaseNotesSkill, validAnswer } from '../helpers/authored-evals.js';
import { anthropicMessage } from '../helpers/model-replies.js';
import { strictNock } from '../helpers/nock-frame.js';
import { printedCommand } from '../helpers/pasted-command.js';
import { captureIo, git, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

strictNock();
afterEach(removeTempDirs);

const KEY = 'sk-ant-first-night-options';
const MODEL = 'anthropic:claude-haiku-4-5';
const SKILLS = ['alpha-notes', 'beta-review'];

async function collection(): Promise<{ parent: string; repo: string }> {
  const parent = await makeTempDir();
  const repo = path.join(parent, 'my-skills');
  for (const name of SKILLS) {
    await mkdir(path.join(repo, 'skills', name), { recursive: true });
    await writeFile(path.join(repo, 'skills', name, 'SKILL.md'), releaseNotesSkill(name));
  }
  await writeFile(path.join(repo, 'README.md'), '# My skills\n');
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'skills');
  return { parent, repo };
}

async function cli(argv: string[], cwd: string, env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: KEY }) {
  const io = captureIo(cwd, new Date());
  io.env = env;
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

/** Every Messages call answered: the author's JSON, else a render or a grader verdict; the models asked for recorded. */
function models(): { asked: string[] } {
  const asked: string[] = [];
  nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': KEY } })
    .persist()
    .post('/v1/messages')
    .reply((_uri, raw) => {
      const body = raw as {
        model: string;
        system?: Array<{ text: string }>;
        messages: Array<{ content: Array<{ text?: string }> }>;
      };
      asked.push(body.model);
      const system = body.system?.map((b) => b.text).join('') ?? '';
      const user = body.messages[0]!.content.map((p) => p.text ?? '').join('');
      let text: string;
      if (system.startsWith('You are a strict editor')) {
        text = JSON.stringify({
          description: 'no-op',
          old_string: 'Print exactly:',
          new_string: 'Print exactly:',
        });
      } else if (system.startsWith('You are a strict, impartial grader')) {
        const ids = /Assertions to grade \(ids: ([\d, ]+)\)/.exec(user)?.[1]?.split(', ') ?? [];
        text = JSON.stringify({
          verdicts: Object.fromEntries(ids.map((id) => [id, { verdict: true, reason: 'checked' }])),
        });
      } else if (user.includes('categories') || system.includes('eval')) {
        text = JSON.stringify(validAnswer());
      } else {
        text = '## Release 1.3.0\n### Features\n- Add CSV export (#41)';
      }
      return [200, anthropicMessage([{ type: 'text', text }], { input_tokens: 100, output_tokens: 20 })];
    });
  return { asked };
}

describe('the first night with --model and --calibrate typed', () => {
  it('every pasted command carries them where the command takes them, and none lands on a freshness wait', async () => {
    const { parent, repo } = await collection();
    const home = await makeTempDir();
    const extra = ['--worktree-home', home, '--per-skill-iterations', '1'];
    const { asked } = models();

    const first = await cli(
      ['iterate', '--project', 'my-skills', '--dry-run', '--model', MODEL, '--calibrate'],
      parent,
    );
    expect(first.code).toBe(0);
    const plan = printedCommand(first.stdout, 'iterate', '--dry-run');
    expect(plan).toEqual([
      'iterate',
      '--dry-run',
      '--project',
      'my-skills',
      '--skills',
      'skills/*',
      '--calibrate',
      '--model',
      MODEL,
    ]);

    const second = await cli(plan, parent);
    expect(second.code).toBe(0);
    // evals init takes --model (the author included), not --calibrate.
    const init = printedCommand(second.stdout, 'evals', 'init', SKILLS[0]!);
    expect(init).toEqual([
      'evals',
      'init',
      SKILLS[0],
      '--project',
      'my-skills',
      '--skills',
      'skills/*',
      '--model',
      MODEL,
    ]);
    let next: string[] = [];
    for (const name of SKILLS) {
      const written = await cli(printedCommand(second.stdout, 'evals', 'init', name), parent);
      expect(written.code).toBe(0);
      next = printedCommand(written.stdout, 'iterate', '--dry-run');
    }
    // The author ran on the typed model, not the key's default.
    expect(new Set(asked)).toEqual(new Set(['claude-haiku-4-5']));
    expect(next).toContain('--model');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'eval files');

    const night = await cli([...next.filter((w) => w !== '--dry-run'), ...extra], parent);
    expect(night.code).toBe(0);
    // The next night: both fresh; the line that runs one now keeps --calibrate (typed again) and --model.
    const again = await cli([...next.filter((w) => w !== '--dry-run'), '--calibrate', '--dry-run'], parent);
    expect(again.code).toBe(0);
    const now = printedCommand(again.stdout, 'iterate', '--skill', SKILLS[0]!);
    expect(now).toEqual(expect.arrayContaining(['--ignore-freshness', '--calibrate', '--model', MODEL]));
    const pasted = await cli([...now, ...extra, '--json'], parent);
    expect(pasted.stdout).not.toContain('Queue empty');
    const run = JSON.parse(pasted.stdout) as {
      queue: string[];
      results: Array<{ skill: string; status: string }>;
    };
    expect(run.queue).toEqual([SKILLS[0]]);
    // Calibrated: a grader that passes every mutation misses the injected defects, so the skill is parked.
    expect(run.results.map((r) => [r.skill, r.status])).toEqual([[SKILLS[0], 'calibration-park']]);
    expect(new Set(asked)).toEqual(new Set(['claude-haiku-4-5']));
    nock.cleanAll();
  }, 240_000);

  it('a model error names the base-URL variable it sees', async () => {
    const { parent } = await collection();
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' };
    const init = await cli(
      ['evals', 'init', SKILLS[0]!, '--project', 'my-skills', '--skills', 'skills/*'],
      parent,
      env,
    );
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(
      'OPENAI_BASE_URL is set: openai:<model> or openai-compatible:<model> sends there (openai-compatible needs no key)',
    );
    const night = await cli(
      ['iterate', '--project', 'my-skills', '--skills', 'skills/*', '--dry-run', '--model', 'openai:gpt-5'],
      parent,
      env,
    );
    expect(night.code).toBe(2);
    expect(night.stderr).toContain('needs OPENAI_API_KEY (OPENAI_BASE_URL is set:');
  });
});
