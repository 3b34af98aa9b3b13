import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The suite-wide guard in test/setup/no-network.ts: a test that forgot its nock scope must fail, not call out.
describe('network guard', () => {
  const server = http.createServer((_req, res) => res.end('loopback ok'));
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a request to a public host', async () => {
    const error = await fetch('https://api.anthropic.com/v1/messages').catch((e: unknown) => e);
    // nock's refusal, not an accident of this machine's network.
    expect(String((error as Error).cause ?? error)).toMatch(/Disallowed net connect/);
  });

  it('allows the loopback servers tests start themselves', async () => {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe('loopback ok');
  });
});
