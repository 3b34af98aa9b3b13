/**
 * End to end: the BUNDLED Action (dist/index.js) in `mode: score`, started the way the runner starts it on
 * a pull_request event — INPUT_* and GITHUB_* variables, the event payload in GITHUB_EVENT_PATH, the pull
 * request's merge commit checked out the way actions/checkout does (depth 1) from a real bare origin, the
 * GitHub API served by a recording stand-in on 127.0.0.1, and no model key (a fork's pull request): the
 * offline provider scores structure. Two pushes: one comment created, then edited.
 */
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  actionsCheckout,
  cleanupTempDirs,
  E2E_TOKEN as TOKEN,
  EXAMPLES_WORKSPACE,
  examplesOnOrigin,
  git,
  runAction,
  tempDir,
} from '../helpers/github-fixtures.js';
import { closeServer, listenOnLoopback, readBody } from '../helpers/local-http.js';

const SKILLS = '.claude/skills';
const COMMENTS = '/repos/acme/skills/issues/7/comments';

interface Comment {
  id: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
}

/** The part of api.github.com a score run talks to: the pull request's comments. Records every request. */
class CommentsStandIn {
  readonly requests: Array<{ method: string; url: string; authorization: string | undefined }> = [];
  readonly comments: Comment[] = [];
  private nextId = 900;
  private readonly server = http.createServer((req, res) => {
    void readBody(req).then((text) => {
      const method = req.method ?? '';
      const url = req.url ?? '';
      this.requests.push({ method, url, authorization: req.headers.authorization });
      const [status, payload] = this.answer(method, url.split('?')[0] ?? '', text ? JSON.parse(text) : {});
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    });
  });

  private answer(method: string, route: string, body: { body?: string }): [number, unknown] {
    if (method === 'GET' && route === COMMENTS) return [200, this.comments];
    if (method === 'POST' && route === COMMENTS) {
      const id = this.nextId++;
      const comment: Comment = {
        id,
        body: body.body ?? '',
        user: { login: 'github-actions[bot]', type: 'Bot' },
        html_url: `https://github.test/acme/skills/pull/7#issuecomment-${id}`,
      };
      this.comments.push(comment);
      return [201, comment];
    }
    const edit = /^\/repos\/acme\/skills\/issues\/comments\/(\d+)$/.exec(route);
    if (method === 'PATCH' && edit) {
      const comment = this.comments.find((c) => c.id === Number(edit[1]));
      if (!comment) return [404, { message: 'Not Found' }];
      comment.body = body.body ?? '';
      return [200, comment];
    }
    return [404, { message: 'Not Found' }];
  }

  start(): Promise<string> {
    return listenOnLoopback(this.server);
  }

  stop(): Promise<void> {
    return closeServer(this.server);
  }
}

interface Pull {
  origin: string;
  work: string;
  base: string;
}

async function pullOfExamples(): Promise<Pull> {
  const { origin, seed: work } = await examplesOnOrigin('skillclimb-e2e-score-');
  git(work, 'checkout', '--quiet', '-b', 'feature');
  return { origin, work, base: git(work, 'rev-parse', 'main') };
}

/** A push to the pull request: the edit on `feature`, GitHub's merge commit, the runner's checkout of it. */
async function push(pull: Pull, edit: (file: string) => Promise<void>) {
  await edit(pull.work);
  git(pull.work, 'add', '-A');
  git(pull.work, '-c', 'user.name=c', '-c', 'user.email=c@example.test', 'commit', '--quiet', '-m', 'edit');
  const head = git(pull.work, 'rev-parse', 'HEAD');
  git(pull.work, 'checkout', '--quiet', '--detach', pull.base);
  git(
    pull.work,
    '-c',
    'user.name=g',
    '-c',
    'user.email=g@example.test',
    'merge',
    '--quiet',
    '--no-ff',
    '-m',
    'merge',
    head,
  );
  const merge = git(pull.work, 'rev-parse', 'HEAD');
  git(pull.work, 'push', '--quiet', '--force', pull.origin, `${merge}:refs/pull/7/merge`);
  git(pull.work, 'checkout', '--quiet', 'feature');
  const checkout = actionsCheckout(
    pull.origin,
    path.join(await tempDir('skillclimb-e2e-score-run-'), 'checkout'),
    {
      commit: merge,
    },
  );
  const eventPath = path.join(await tempDir('skillclimb-e2e-score-event-'), 'event.json');
  await writeFile(
    eventPath,
    JSON.stringify({
      pull_request: {
        number: 7,
        base: { sha: pull.base, repo: { full_name: 'acme/skills' } },
        head: { sha: head, repo: { full_name: 'stranger/skills' } },
      },
    }),
  );
  return { checkout, eventPath };
}

const event = (eventPath: string) => ({
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_HEAD_REF: 'feature',
  GITHUB_REF: 'refs/pull/7/merge',
  GITHUB_REF_NAME: '7/merge',
  GITHUB_EVENT_PATH: eventPath,
});

async function replaceIn(file: string, from: RegExp | string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const next = text.replace(from, to);
  expect(next).not.toBe(text);
  await writeFile(file, next);
}

const github = new CommentsStandIn();
let apiUrl = '';
beforeAll(async () => {
  apiUrl = await github.start();
});
afterEach(async () => {
  await cleanupTempDirs();
});
afterAll(() => github.stop());

describe('the bundled Action in mode: score, end to end', () => {
  it("comments once on a fork's pull request touching two skills, edits the comment on the next push, and fails on a regression", async () => {
    const pull = await pullOfExamples();
    // release-notes loses its Limitations section (a required section: the structural score drops);
    // session-wrap changes a word, which moves no structural metric.
    const first = await push(pull, async (work) => {
      await replaceIn(path.join(work, SKILLS, 'release-notes', 'SKILL.md'), /\n## Limitations[\s\S]*$/, '\n');
      await replaceIn(
        path.join(work, SKILLS, 'session-wrap', 'SKILL.md'),
        'tomorrow morning',
        'tomorrow evening',
      );
    });

    const run1 = await runAction(first.checkout, apiUrl, { mode: 'score' }, event(first.eventPath));

    expect(run1.code, run1.stdout).toBe(1);
    expect(run1.stdout).toContain('::error::skill scores: release-notes regressed beyond the noise margin');
    expect(run1.stdout.split(TOKEN)).toHaveLength(2); // only the ::add-mask:: line
    expect(github.requests.every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);
    expect(github.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      `GET ${COMMENTS}`,
      `POST ${COMMENTS}`,
    ]);
    expect(github.comments).toHaveLength(1);
    const body = github.comments[0]!.body;
    expect(body.split('\n')[0]).toBe('<!-- skillclimb:score -->');
    expect(body).toContain('This pull request comes from the fork stranger/skills');
    expect(body).toMatch(/\| release-notes \| \d\.\d{4} → \d\.\d{4} \| -\d\.\d{4} \| 🔻 regression \|/);
    expect(body).toMatch(/\| session-wrap \| (\d\.\d{4}) → \1 \| \+0\.0000 \| = unchanged \|/);
    expect(body).not.toMatch(/\| (user-debug|verify) \|/);
    expect(run1.outputs['comment-url']).toBe(github.comments[0]!.html_url);
    expect(JSON.parse(run1.outputs.regressions!)).toEqual([
      expect.objectContaining({ skill: 'release-notes' }),
    ]);
    expect(run1.summary).toContain('<!-- skillclimb:score -->');
    // The checkout is as the runner left it: the base's worktree is gone.
    expect(git(first.checkout, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(git(first.checkout, 'status', '--porcelain')).toBe('');

    // The next push puts the section back: the same comment is edited, and the check passes.
    github.requests.length = 0;
    const second = await push(pull, async (work) => {
      await writeFile(
        path.join(work, SKILLS, 'release-notes', 'SKILL.md'),
        await readFile(path.join(EXAMPLES_WORKSPACE, SKILLS, 'release-notes', 'SKILL.md')),
      );
    });
    const run2 = await runAction(second.checkout, apiUrl, { mode: 'score' }, event(second.eventPath));
    expect(run2.code, run2.stdout).toBe(0);
    expect(github.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      `GET ${COMMENTS}`,
      `PATCH /repos/acme/skills/issues/comments/${github.comments[0]!.id}`,
    ]);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain('No skill regressed beyond the noise margin.');
    expect(github.comments[0]!.body).not.toMatch(/\| release-notes \|/);
  });
});
