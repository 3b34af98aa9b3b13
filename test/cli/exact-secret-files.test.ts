/**
 * The exact secrets in use redact the CLI's files (docs/how-it-works.md § Untrusted text and secrets): a
 * provider error that echoes secrets with no recognisable token shape never reaches results.tsv, the
 * morning summary or a park report. The model layer redacts only its own role's key, so the error here also
 * echoes another secret of the environment (GITHUB_TOKEN, as a gateway that reports the request might);
 * only the CLI's pass with every secret in use catches that one. The CLI runs for real (main), the provider
 * answers through nock.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cleanupTempDirs, makeProject, tempDir } from '../helpers/engine-fixtures.js';
import { captureIo } from '../helpers/skill-project.js';

const KEY = 'plainsecretvalue123456';
const TOKEN = 'plaintokenvalue7890abc';

afterEach(async () => {
  nock.cleanAll();
  await cleanupTempDirs();
});

describe('a model error that echoes the exact key', () => {
  it('(the model key and another secret of the environment) never reaches results.tsv, the morning summary or the park report', async () => {
    const project = await makeProject();
    const home = await tempDir('skillclimb-home-');
    // Every call fails with the key in the message, as some providers and proxies answer.
    const api = nock('https://api.openai.com')
      .post(() => true)
      .reply(400, {
        error: {
          message: `bad request for key ${KEY} (forwarded token ${TOKEN})`,
          type: 'invalid_request_error',
        },
      })
      .persist();
    const io = captureIo(project);
    io.env = { OPENAI_API_KEY: KEY, GITHUB_TOKEN: TOKEN };
    const code = await main(
      [
        'iterate',
        '--project',
        project,
        '--worktree-home',
        home,
        '--mode',
        'structural',
        '--model',
        'openai:gpt-4o-mini',
        '--per-skill-iterations',
        '4',
        '--json',
      ],
      io,
    );
    expect(code, io.stderr()).toBe(0);
    // The --json result quotes the same reasons; its dates stay dates.
    expect(JSON.parse(io.stdout()).startedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(api.isDone()).toBe(true);

    const results = await readFile(path.join(project, '.claude/skills/demo/evals/results.tsv'), 'utf8');
    expect(results).toMatch(/crash\t\[structural\] no edit \(crash: .*\[redacted\]/);
    const runs = path.join(project, 'docs/skill-iterate-runs');
    const files = await readdir(runs);
    const park = files.find((f) => f.startsWith('parked-demo-'));
    expect(park, files.join(', ')).toBeDefined();
    const summary = files.find((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f));
    expect(summary, files.join(', ')).toBeDefined();
    for (const text of [
      results,
      await readFile(path.join(runs, park!), 'utf8'),
      await readFile(path.join(runs, summary!), 'utf8'),
      io.stdout(),
      io.stderr(),
    ]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(TOKEN);
    }
  });
});
