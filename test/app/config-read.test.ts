/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * `.github/review-loop.yml` as Probot's config plugin reads it, with `_extends:`: a target that cannot be
 * read is answered with a comment naming it (it used to be ignored silently), and a readable one is merged
 * under the repository's own values as `context.config` merges it.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeConfigs } from '../../src/app/config-files.js';
import {
  OWNER,
  PR,
  REPO_PATH,
  commentPayload,
  nockPermission,
  nockToken,
  outcome,
  scriptedRunner,
  startTestApp,
} from '../helpers/app-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const YAML = { 'content-type': 'text/plain; charset=utf-8' };

describe('_extends', () => {
  it('names the repository an `_extends:` points at when its file cannot be read, and starts nothing', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const replies: string[] = [];
    const mock = nockToken()
      .get(`${REPO_PATH}/contents/.github%2Freview-loop.yml`)
      .reply(200, '_extends: gone-defaults\nrounds: 3\n', YAML)
      .get(`/repos/${OWNER}/gone-defaults/contents/.github%2Freview-loop.yml`)
      .reply(404, { message: 'Not Found' });
    nockPermission('maintainer', 'write', mock);
    mock
      .post(`${REPO_PATH}/issues/${PR}/comments`, (body: any) => (replies.push(body.body), true))
      .reply(201, { id: 1 });

    await probot.receive({
      id: 'e1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await queue.idle();

    expect(requests).toHaveLength(0);
    expect(replies).toEqual([
      expect.stringMatching(
        /^The review loop did not start: `.github\/review-loop.yml`: `_extends` names Codertocat\/gone-defaults,/,
      ),
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('merges as context.config does: the repository’s values over the extended ones, objects deeply, lists joined', () => {
    const extended = { rounds: 6, budget: { max_rounds: 8, max_tokens: 100 }, fix_paths: ['docs/**'] };
    const own = { rounds: 3, budget: { max_tokens: 50 }, fix_paths: ['test/**'] };
    // the plugin hands the files base first, the repository's own last
    expect(mergeConfigs([extended, own])).toEqual({
      rounds: 3,
      budget: { max_rounds: 8, max_tokens: 50 },
      fix_paths: ['docs/**', 'test/**'],
    });
  });
});
