/**
 * The operator's endpoints on a started App without REDIS_URL (the in-memory default): `GET /ready` says
 * the queue and claims live in this one process; `GET /metrics` serves Prometheus text with the
 * deliveries the App received and ignored, its queue's figures, its GitHub writes and the process's
 * basics. (With REDIS_URL: test/app/ready-redis.test.ts, in a process of its own.)
 */
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import type { StartedApp } from '../../src/app/server.js';
import { commentPayload } from '../helpers/app-fixtures.js';
import { sign } from '../helpers/app-child.js';
import {
  WEBHOOK_SECRET,
  metricSample,
  nockGetApp,
  readyState,
  startOnLoopback,
} from '../helpers/started-app.js';

let started: StartedApp | undefined;

afterEach(async () => {
  await started?.stop();
  started = undefined;
  nock.cleanAll();
});

function deliver(origin: string, body: string, id: string, secret = WEBHOOK_SECRET) {
  return fetch(`${origin}/api/github/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': id,
      'x-hub-signature-256': sign(secret, body),
    },
    body,
  });
}

describe('GET /ready without REDIS_URL', () => {
  it('says the queue and claims live in this one process', async () => {
    const mock = nockGetApp();
    const app = await startOnLoopback();
    started = app.started;
    const state = await readyState(app.origin);
    expect(state.status).toBe(200);
    expect(state.body.app).toBe('skillclimb-review-loop');
    expect(state.body.checks?.store).toMatch(/^memory: .* run ONE replica \(set REDIS_URL to share them/);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('GET /metrics', () => {
  it('serves Prometheus text: deliveries received and ignored, the queue, GitHub writes by kind, the process', async () => {
    const mock = nockGetApp();
    const app = await startOnLoopback();
    started = app.started;
    const before = await (await fetch(`${app.origin}/metrics`)).text();
    expect(metricSample(before, 'skillclimb_app_deliveries_ignored_total')).toBe(0);
    expect(metricSample(before, 'skillclimb_app_deliveries_received_total')).toBe(undefined);

    // A verified comment that is no command: received, and ignored.
    const body = JSON.stringify(commentPayload({ body: 'nice work' }));
    expect((await deliver(app.origin, body, 'delivery-1')).status).toBeLessThan(300);
    // A bad signature is not a received delivery.
    expect((await deliver(app.origin, body, 'delivery-2', 'another-secret')).status).toBeGreaterThanOrEqual(
      400,
    );

    const response = await fetch(`${app.origin}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(metricSample(text, 'skillclimb_app_deliveries_received_total{event="issue_comment"}')).toBe(1);
    expect(metricSample(text, 'skillclimb_app_deliveries_ignored_total')).toBe(1);
    expect(metricSample(text, 'skillclimb_app_loops_running')).toBe(0);
    expect(metricSample(text, 'skillclimb_app_loops_waiting')).toBe(0);
    expect(metricSample(text, 'skillclimb_app_pulls_claimed')).toBe(0);
    expect(metricSample(text, 'skillclimb_app_rounds_completed_total')).toBe(0);
    expect(metricSample(text, 'skillclimb_app_github_writes_total{kind="review"}')).toBe(0);
    expect(text).toContain('# TYPE skillclimb_app_rounds_completed_total counter\n');
    expect(metricSample(text, 'process_resident_memory_bytes')).toBeGreaterThan(1_000_000);
    expect(metricSample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    // Every line is a comment or `name[{labels}] value`.
    for (const line of text.trimEnd().split('\n'))
      expect(line).toMatch(
        /^(# (HELP|TYPE) [a-z_:][a-z0-9_:]* .+|[a-z_:][a-z0-9_:]*(\{[^}]*\})? (-?[0-9.e+-]+|NaN|[+-]Inf))$/,
      );
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
