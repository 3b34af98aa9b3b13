/**
 * The throttle queues writes per installation on EVERY client the App gets — also the one Probot builds
 * for a webhook delivery (its "event-octokit"), which would otherwise keep the App's single throttle key,
 * so that one installation's deliveries wait behind another's, a second a write (docs/how-it-works.md
 * § The App, "Writes per round").
 */
import nock from 'nock';
import { Probot, type ProbotOctokit } from 'probot';
import { afterEach, describe, expect, it } from 'vitest';
import { appOctokit } from '../../src/app/github-client.js';
import { APP_ID, PRIVATE_KEY } from '../helpers/app-fixtures.js';

type Client = InstanceType<typeof ProbotOctokit>;

async function deliveryClient(probot: Probot, installationId: number): Promise<Client> {
  // The client Probot hands a webhook handler as `context.octokit`: the App's client, asked for an event's.
  const app = await probot.auth();
  return (await app.auth({
    type: 'event-octokit',
    event: {
      id: `d-${installationId}`,
      name: 'issue_comment',
      payload: { action: 'created', installation: { id: installationId } },
    },
  })) as Client;
}

describe('the write throttle, per installation', () => {
  afterEach(() => nock.cleanAll());

  it('two installations’ delivery clients write side by side; one installation’s writes stay a second apart', async () => {
    nock.disableNetConnect();
    const at = new Map<string, number>();
    const scope = nock('https://api.github.com')
      .post(/\/app\/installations\/\d+\/access_tokens/)
      .times(2)
      .reply(201, { token: 'ghs_test', expires_at: new Date(Date.now() + 3_600_000).toISOString() })
      .post(/\/repos\/o\/r\/issues\/comments\/\d+\/reactions/)
      .times(4)
      .reply(201, function (uri) {
        at.set(uri.split('/')[6] ?? uri, Date.now());
        return { id: 1 };
      });
    const probot = new Probot({ appId: APP_ID, privateKey: PRIVATE_KEY, Octokit: appOctokit() });
    const [a, b] = await Promise.all([deliveryClient(probot, 1), deliveryClient(probot, 2)]);
    const react = (client: Client, comment: number) =>
      client.rest.reactions.createForIssueComment({
        owner: 'o',
        repo: 'r',
        comment_id: comment,
        content: 'eyes',
      });
    await Promise.all([react(a, 101), react(a, 102), react(b, 201), react(b, 202)]);
    const time = (comment: string) => at.get(comment) ?? Number.NaN;
    // Each installation's first write goes at once: with one queue shared by both, the second
    // installation's would wait a second (or two) behind the first's.
    expect(Math.abs(time('201') - time('101'))).toBeLessThan(500);
    // One installation's two writes are still spaced by the throttle, a second apart (unthrottled they
    // would arrive together; the margin is for a busy machine, where the first request can reach the
    // server a few hundred milliseconds after the throttle released it).
    expect(time('102') - time('101')).toBeGreaterThanOrEqual(650);
    expect(time('202') - time('201')).toBeGreaterThanOrEqual(650);
    expect(scope.pendingMocks()).toStrictEqual([]);
  });
});
