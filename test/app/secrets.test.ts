/**
 * No secret of the App's environment leaves it, whatever a model says: the reviewer and the executor echo
 * the webhook secret, an odd-shaped model key (an Azure or LiteLLM key), an `sk-…` key, the installation
 * token (`ghs_…`) and a line of the private key, in titles, details, fixes, summaries and memory. Every
 * request body the App sends to GitHub — the sticky comment's base64 state and the receipt decoded, the
 * fix's tree with the files' texts inline — and every log line is scanned for each value.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appSecrets } from '../../src/app/app.js';
import { createLoopRunner } from '../../src/app/engine.js';
import {
  NOW,
  PRIVATE_KEY,
  SETTINGS,
  commentPayload,
  recordingLog,
  startTestApp,
} from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import {
  CALC_BASE,
  CALC_BRANCH,
  README,
  anthropicReply,
  openaiReply,
  reviewAnswer,
} from '../helpers/review-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const KEY_LINE = PRIVATE_KEY.split('\n').find((line) => line.length > 40 && !line.startsWith('-----'))!;
const ENV = {
  // an OpenAI-compatible gateway's key: no known shape
  OPENAI_API_KEY: 'azure7odd7shaped7gateway7key',
  ANTHROPIC_API_KEY: `sk-ant-api03-${'Q'.repeat(40)}`,
  WEBHOOK_SECRET: 'plain words webhook secret 42',
  PRIVATE_KEY,
};
/** The installation token as GitHub issues it (`ghs_…`), and one of no known shape (redacted by value only). */
const TOKENS = { 'ghs_…': `ghs_${'T'.repeat(36)}`, 'odd-shaped': 'odd0installation0token0value' };

/** Every text inside a body: the hidden base64 blocks and base64 blob contents decoded. */
function decodedTexts(body: string): string[] {
  const texts = [body];
  for (const match of body.matchAll(/<!-- skillclimb:[a-z-]+ ([A-Za-z0-9+/=]+) -->/g)) {
    texts.push(Buffer.from(match[1]!, 'base64').toString('utf8'));
  }
  try {
    const json = JSON.parse(body);
    if (json && typeof json.content === 'string' && json.encoding === 'base64') {
      texts.push(Buffer.from(json.content, 'base64').toString('utf8'));
    }
    if (json && typeof json.body === 'string') texts.push(...decodedTexts(json.body).slice(1));
  } catch {
    // not JSON
  }
  return texts;
}

describe('exact-value redaction at the App’s sink', () => {
  it.each(Object.entries(TOKENS))(
    'keeps every kind of secret a model echoes (installation token %s) out of every request to GitHub, the decoded state included, and out of the logs',
    async (_kind, TOKEN) => {
      const SECRETS = {
        webhook: ENV.WEBHOOK_SECRET,
        odd: ENV.OPENAI_API_KEY,
        sk: ENV.ANTHROPIC_API_KEY,
        ghs: TOKEN,
        keyLine: KEY_LINE,
      };
      const ECHO = Object.entries(SECRETS)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ; ');
      const fake = new FakePull({
        base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
        head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
      });
      fake.token = TOKEN;
      const mock = fake.interceptBase();
      fake.interceptReads(mock);
      fake.interceptGitData(mock);
      const sent: string[] = [];
      mock.on('request', (_req: unknown, _interceptor: unknown, body: string) => sent.push(body ?? ''));

      openaiReply(
        reviewAnswer(
          4,
          'not ready',
          [
            {
              title: `half() leaks ${SECRETS.webhook}`,
              detail: `It prints ${ECHO}`,
              minimum_fix: `Remove ${SECRETS.sk} and ${SECRETS.keyLine}`,
              file: 'src/calc.ts',
              line: 6,
            },
          ],
          `Remember ${ECHO}`,
        ),
      );
      // The fix follows at once: the executor checks the finding in its fix call (and echoes the secret there).
      anthropicReply({
        summary: `divide by two; ${ECHO}`,
        edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: `n / 2; // ${SECRETS.odd}` }],
        checks: [{ finding: 1, holds: true, evidence: `The division is wrong. ${ECHO}` }],
      });
      // Round 2 reviews round 1's own fix: its approval needs no confirmation.
      openaiReply({ ...reviewAnswer(8, 'ready', [], `Memory: ${ECHO}`), summary: `Fine now. ${ECHO}` });

      const logs: string[] = [];
      const runner = createLoopRunner(ENV, {
        models: { retryHooks: { sleep: async () => {}, random: () => 0 }, retry: { baseDelayMs: 1 } },
        clock: () => NOW,
      });
      const { probot, queue } = await startTestApp(runner, SETTINGS, {
        secrets: appSecrets(ENV),
        log: recordingLog(logs),
      });
      await probot.receive({
        id: 'c101',
        name: 'issue_comment',
        payload: commentPayload({ body: '/review-loop', commentId: 101 }),
      });
      await queue.idle();

      // the loop ran as usual: two reviews (one with an inline comment), a fix, a sticky state
      expect(fake.reviews).toHaveLength(2);
      expect(fake.reviews[0].comments).toHaveLength(1);
      expect(fake.refUpdates).toHaveLength(1);
      // the executor's edit reached the branch with the key it echoed taken out (the tree's inline text)
      expect(fake.filesAt(fake.head)['src/calc.ts']).toContain('n / 2; // [redacted]');
      expect(fake.reviews[0].body).toContain('[redacted]');
      const posted = sent.filter((body) => body !== '');
      expect(posted.length).toBeGreaterThan(10);
      const everything = [...posted.flatMap(decodedTexts), ...logs].join('\n');
      const leaked = Object.entries(SECRETS)
        .filter(([, value]) => everything.includes(value))
        .map(([kind]) => kind);
      expect(leaked).toEqual([]);
      // the decoded state is among what was scanned, and the model's memory reached it (redacted)
      expect(everything.includes('Remember webhook=[redacted]')).toBe(true);
      expect(mock.pendingMocks()).toStrictEqual([]);
      expect(nock.pendingMocks()).toStrictEqual([]);
    },
  );
});
