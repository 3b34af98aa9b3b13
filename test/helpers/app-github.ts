/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * A pull request on a scripted GitHub for the App's Probot tests: the sticky comment and replies, the PR,
 * reactions, check runs and defect-park issues, each recorded in order. Every interceptor persists, so a
 * test registers only the parts it uses: one never called stays pending and fails the test.
 */
import nock from 'nock';
import { decodeStateBlock } from '../../src/github/review/sticky-comment.js';
import type { pullData } from './app-fixtures.js';
import { API, APP_ID, OWNER, PR, REPO, REPO_PATH } from './app-fixtures.js';

const COMMENTS = `${REPO_PATH}/issues/${PR}/comments`;
const STICKY = '<!-- skillclimb:review-loop -->';

export interface CheckCall {
  kind: 'create' | 'update';
  id: number;
  body: any;
}

export function scriptedGitHub(parts: {
  /** A sticky comment already there (its body). */
  sticky?: string;
  /** Whether the App reads the PR's comments (false: it only replies). */
  list?: boolean;
  /** Whether the App posts comments (a reply, or a new sticky comment). */
  post?: boolean;
  /** Whether it edits the sticky comment. */
  patchSticky?: boolean;
  reactions?: boolean;
  pull?: ReturnType<typeof pullData>;
  checks?: boolean;
  parkIssues?: boolean;
}) {
  const live = {
    sticky: parts.sticky,
    replies: [] as string[],
    checkCalls: [] as CheckCall[],
    issues: [] as any[],
    /** The sticky state as the App last wrote it. */
    state(): any {
      return decodeStateBlock(live.sticky ?? '');
    },
    /** One entry per check run made: its head and every state it was given, in order. */
    checkRuns(): Array<{ id: number; head: string; states: string[] }> {
      const runs = new Map<number, { id: number; head: string; states: string[] }>();
      for (const call of live.checkCalls) {
        const state = call.body.conclusion ?? call.body.status;
        if (call.kind === 'create') runs.set(call.id, { id: call.id, head: call.body.head_sha, states: [] });
        runs.get(call.id)?.states.push(state);
      }
      return [...runs.values()];
    },
  };
  const listed = () =>
    live.sticky
      ? [
          {
            id: 9001,
            body: live.sticky,
            html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}#issuecomment-9001`,
            user: { login: 'review-loop[bot]', type: 'Bot' },
            performed_via_github_app: { id: APP_ID },
          },
        ]
      : [];
  const scope = nock(API).persist();
  if (parts.list ?? true) scope.get(COMMENTS).query(true).reply(200, listed);
  if (parts.post ?? true) {
    scope.post(COMMENTS).reply(201, (_uri: string, body: any) => {
      if (String(body.body).startsWith(STICKY)) live.sticky = body.body;
      else live.replies.push(body.body);
      return { id: 9001, html_url: 'https://github.com/c/9001' };
    });
  }
  if (parts.patchSticky ?? true) {
    scope
      .patch(`${REPO_PATH}/issues/comments/9001`)
      .reply(200, (_uri: string, body: any) => ((live.sticky = body.body), { id: 9001, html_url: 'u' }));
  }
  if (parts.reactions) scope.post(/\/issues\/comments\/\d+\/reactions$/).reply(201, {});
  if (parts.pull) scope.get(`${REPO_PATH}/pulls/${PR}`).reply(200, parts.pull);
  if (parts.checks) {
    let next = 300;
    scope
      .post(`${REPO_PATH}/check-runs`)
      .reply(201, (_uri: string, body: any) => {
        const id = next++;
        live.checkCalls.push({ kind: 'create', id, body });
        return { id, head_sha: body.head_sha, html_url: `https://github.com/check/${id}` };
      })
      .patch(/\/check-runs\/\d+$/)
      .reply(200, (uri: string, body: any) => {
        const id = Number(uri.split('/').at(-1));
        live.checkCalls.push({ kind: 'update', id, body });
        return { id };
      });
  }
  if (parts.parkIssues) {
    scope
      .get(`${REPO_PATH}/issues`)
      .query(true)
      .reply(200, [])
      .post(`${REPO_PATH}/issues`)
      .reply(201, (_uri: string, body: any) => {
        live.issues.push(body);
        return { number: 12, html_url: `https://github.com/${OWNER}/${REPO}/issues/12` };
      });
  }
  return Object.assign(live, { scope });
}
