/* eslint-disable @typescript-eslint/no-explicit-any -- webhook payloads are untyped JSON */
/**
 * Signed deliveries missing a field the App reads are answered and ignored with one log line: the
 * handler never throws (Probot would answer 500), and nothing reaches GitHub.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  commentPayload,
  outcome,
  pullRequestPayload,
  recordingLog,
  rerequestPayload,
  scriptedRunner,
  SETTINGS,
  startTestApp,
} from '../helpers/app-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const CASES: Array<[string, string, () => any]> = [
  [
    'issue_comment',
    'no comment',
    () => ({ ...commentPayload({ body: '/review-loop' }), comment: undefined }),
  ],
  ['issue_comment', 'no issue', () => ({ ...commentPayload({ body: '/review-loop' }), issue: undefined })],
  [
    'issue_comment',
    'no repository',
    () => ({ ...commentPayload({ body: '/review-loop' }), repository: undefined }),
  ],
  [
    'issue_comment',
    'no installation',
    () => ({ ...commentPayload({ body: '/review-loop' }), installation: undefined }),
  ],
  [
    'pull_request',
    'no pull_request',
    () => ({ ...pullRequestPayload('synchronize'), pull_request: undefined }),
  ],
  ['pull_request', 'no repository', () => ({ ...pullRequestPayload('closed'), repository: undefined })],
  ['check_run', 'no check_run', () => ({ ...rerequestPayload({}), check_run: undefined })],
];

describe('deliveries missing fields', () => {
  it.each(CASES)('%s with %s: answered, ignored, one log line', async (name, _what, payload) => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const lines: string[] = [];
    const { probot, queue } = await startTestApp(runner, SETTINGS, { log: recordingLog(lines) });
    await expect(
      probot.receive({ id: 'm1', name: name as any, payload: payload() }),
    ).resolves.toBeUndefined();
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(lines.filter((line) => line.includes('ignored'))).toHaveLength(1);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});
