/**
 * End to end: the dashboard issue of the BUNDLED Action (dist/index.js) as the runner starts it — two
 * nights of `mode: run` on real checkouts of examples/workspace whose `origin` is a local bare repository,
 * the GitHub API served by the recording stand-in with its issue store on, and the offline provider.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  actionsCheckout,
  cleanupTempDirs,
  examplesOnOrigin,
  RecordingGitHub,
  runAction,
  tempDir,
} from '../helpers/github-fixtures.js';

/** examples/workspace on a bare origin's `main`, and the runner's default checkout of it. */
async function checkoutOfExamples(): Promise<{ origin: string; checkout: string }> {
  const { root, origin } = await examplesOnOrigin('skillclimb-e2e-dashboard-');
  return { origin, checkout: actionsCheckout(origin, path.join(root, 'checkout')) };
}

const tick = (body: string, kind: string, name: string) => {
  const start = body.indexOf(`<!-- skillclimb:orders ${kind} -->`);
  const line = body.indexOf(`- [ ] \`${name}\``, start);
  expect(line, `${kind} ${name}`).toBeGreaterThan(start);
  return `${body.slice(0, line)}- [x]${body.slice(line + 5)}`;
};

const server = new RecordingGitHub();
let apiUrl = '';
beforeAll(async () => {
  apiUrl = await server.start();
});
afterEach(async () => {
  server.reset();
  await cleanupTempDirs();
});
afterAll(() => server.stop());

describe('the dashboard issue of the bundled Action', () => {
  it("is created on the first night, obeys a maintainer's ticks on the next, and is updated in place", async () => {
    server.issues = [];
    server.permissions = { maintainer: 'write' };
    const { origin, checkout } = await checkoutOfExamples();

    const night1 = await runAction(checkout, apiUrl, {});
    expect(night1.code, night1.stdout).toBe(0);
    const creates = () =>
      server.requests.filter((r) => r.method === 'POST' && r.url === '/repos/acme/skills/issues');
    const dashboards = () => server.issues!.filter((i) => i.body.startsWith('<!-- skillclimb:dashboard'));
    expect(creates()).toHaveLength(1);
    expect(dashboards()).toHaveLength(1);
    const dashboard = dashboards()[0]!;
    expect(dashboard).toMatchObject({
      title: 'skillclimb dashboard',
      labels: ['skill-iterate'],
      state: 'open',
    });
    expect(dashboard.body).toContain('3 skills run');
    expect(dashboard.body).toContain('## Skills (4)');
    expect(dashboard.body).toContain('| `verify` | – |  | – | excluded: skip-list (embedded) |');
    for (const skill of ['release-notes', 'session-wrap', 'user-debug'])
      expect(dashboard.body).toContain(`| \`${skill}\` | 0.`);
    expect(night1.stdout).toContain(
      `dashboard: https://github.test/acme/skills/issues/${dashboard.number} (created)`,
    );

    // A maintainer ticks two boxes; the next night's runner starts from a fresh checkout.
    dashboard.body = tick(tick(dashboard.body, 'run', 'release-notes'), 'skip', 'session-wrap');
    dashboard.edits.push({ login: 'maintainer', at: new Date(Date.now() + 1_000).toISOString() });
    server.requests.length = 0;
    const night2 = await runAction(
      actionsCheckout(origin, path.join(await tempDir('skillclimb-e2e-n2-'), 'c')),
      apiUrl,
      {},
    );
    expect(night2.code, night2.stdout).toBe(0);

    // Everything ran last night (fresh), but release-notes was ordered to run.
    expect(JSON.parse(night2.outputs.queue ?? 'null')).toEqual(['release-notes']);
    expect(creates()).toEqual([]);
    expect(
      server.requests.some((r) => r.url === '/repos/acme/skills/collaborators/maintainer/permission'),
    ).toBe(true);
    expect(dashboards()).toHaveLength(1);
    const body = dashboards()[0]!.body;
    expect(body.split('\n')[0]).toBe('<!-- skillclimb:dashboard skip=session-wrap -->');
    expect(body).toContain('- Ran `release-notes` as ordered (freshness ignored); the box is cleared.');
    expect(body).toContain('- [ ] `release-notes`');
    expect(body).toContain('- [x] `session-wrap`');
    expect(body).toContain('skipped (dashboard order, until unchecked)');
  }, 240_000);

  it('a dry run shows the dashboard it would write and makes no request', async () => {
    server.issues = [];
    const { checkout } = await checkoutOfExamples();
    const run = await runAction(checkout, apiUrl, { 'dry-run': 'true' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(server.requests).toEqual([]);
    expect(run.summary).toContain('## The dashboard issue it would write (a dry run writes nothing)');
    expect(run.summary).toContain('<!-- skillclimb:dashboard -->');
  }, 60_000);
});
