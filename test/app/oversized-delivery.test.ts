/**
 * A delivery over GitHub's 25 MB payload limit is refused 413 by the webhook middleware the App's Probot
 * hands the server, before its body is read; a normal-sized one still reaches the webhook handling (here a
 * bad signature, answered 4xx as before). Real HTTP on loopback, the middleware as `npm start` serves it.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { outcome, scriptedRunner, startTestApp } from '../helpers/app-fixtures.js';
import { closeServer, listenOnLoopback } from '../helpers/local-http.js';

let server: http.Server | undefined;
afterEach(async () => {
  if (server) await closeServer(server);
  server = undefined;
});

/** POSTs `body` while declaring `length` bytes; resolves the status (the request is cut once it is answered). */
function post(origin: string, length: number, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(length),
        'x-github-event': 'issue_comment',
        'x-github-delivery': 'big-1',
        'x-hub-signature-256': 'sha256=00',
      },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    request.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
    request.write(body);
    if (body.length >= length) request.end();
  });
}

describe('oversized deliveries', () => {
  it('answers 413 to a 30 MB delivery and still checks the signature of a normal one', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot } = await startTestApp(runner);
    const middleware = await probot.getNodeMiddleware();
    server = http.createServer((req, res) => {
      void middleware(req, res, () => res.writeHead(404).end());
    });
    const origin = await listenOnLoopback(server);

    expect(await post(origin, 30 * 1024 * 1024, '{"action":"created",')).toBe(413);
    const small = '{"action":"created"}';
    const status = await post(origin, small.length, small);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(requests).toHaveLength(0);
  });
});
