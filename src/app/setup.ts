/**
 * The registration pages `npm start` serves without credentials (docs/app.md § Install it on a repository):
 * Probot's own flow — the manifest from `app.yml`, the code exchange, `.env` written, smee for local
 * development — behind a page of the App's own: it shows the App's name and description from `app.yml`
 * (Probot's shows the npm package's), says where the webhook will point and what to set after
 * registering, and the manifest's webhook URL is `WEBHOOK_PROXY_URL` or the App's webhook path, never the
 * server's root. Probot does not export these parts of its flow, so they are loaded from its files.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'probot';
import { Probot, Server } from 'probot';

export const WEBHOOK_PATH = '/api/github/webhooks';

type Handler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

interface ManifestCreation {
  readonly pkg: object;
  getManifest(options: { pkg: object; baseUrl: string }): string;
  readonly createAppUrl: string;
}

interface ProbotSetup {
  setupAppFactory(options: { host: string; port: number; log: Logger }): () => Promise<Handler>;
}

/** One of Probot's own modules by its file (its package exports only the index). */
async function probotModule<T>(file: string): Promise<T> {
  const index = createRequire(import.meta.url).resolve('probot');
  return (await import(pathToFileURL(path.join(path.dirname(index), file)).href)) as T;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function baseUrlOf(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-proto'];
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || 'http';
  const host = req.headers['x-forwarded-host'] ?? req.headers.host ?? 'localhost:3000';
  return `${proto}://${Array.isArray(host) ? host[0] : host}`;
}

const LOCAL = /^https?:\/\/(localhost|127\.|\[::1\]|0\.0\.0\.0)/;

function page(input: {
  manifest: Record<string, unknown>;
  createAppUrl: string;
  org: string | undefined;
}): string {
  const { manifest } = input;
  const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
  const name = text(manifest.name, 'review-loop');
  const description = text(manifest.description, '');
  const hook = text((manifest.hook_attributes as { url?: unknown } | undefined)?.url, '');
  const where = input.org ? `the organisation <b>${escapeHtml(input.org)}</b>` : 'your account';
  const webhook = LOCAL.test(hook)
    ? `<p>The webhook will point at <code>${escapeHtml(hook)}</code>, which GitHub cannot reach. Once the App runs where GitHub can reach it, set the App's <b>Webhook URL</b> (its settings → General → Webhook) to <code>https://&lt;your host&gt;${WEBHOOK_PATH}</code>; for local development, start with <code>WEBHOOK_PROXY_URL</code> set to a smee.io channel instead.</p>`
    : `<p>The webhook will point at <code>${escapeHtml(hook)}</code>.</p>`;
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <title>Register ${escapeHtml(name)}</title>
    <link rel="stylesheet" href="/probot/static/primer.css">
  </head>
  <body class="p-6">
    <h1>${escapeHtml(name)}</h1>
    <p>${escapeHtml(description)}</p>
    <p>Registering creates this GitHub App under ${where} with the permissions and events of <code>app.yml</code>. Its name must be unique on GitHub: if it is taken, change <code>name:</code> in <code>app.yml</code> and reload this page.${input.org ? '' : ' To register it under an organisation, start with <code>GH_ORG=&lt;organisation&gt;</code>.'}</p>
    ${webhook}
    <form action="${escapeHtml(input.createAppUrl)}" method="post">
      <input type="hidden" name="manifest" value="${escapeHtml(JSON.stringify(manifest))}">
      <button class="btn btn-primary" type="submit">Register GitHub App</button>
      <a href="/probot/import" class="ml-2">or use an existing GitHub App</a>
    </form>
  </body>
</html>`;
}

/** `GET /probot`: the App's registration page, from the manifest Probot builds out of `app.yml`. */
async function registrationPage(env: NodeJS.ProcessEnv): Promise<Handler> {
  const { ManifestCreation } = await probotModule<{ ManifestCreation: new () => ManifestCreation }>(
    'manifest-creation.js',
  );
  const creation = new ManifestCreation();
  return (req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/probot') return false;
    const baseUrl = baseUrlOf(req);
    const manifest = JSON.parse(creation.getManifest({ pkg: creation.pkg, baseUrl })) as Record<
      string,
      unknown
    >;
    const hook = (manifest.hook_attributes ?? {}) as Record<string, unknown>;
    manifest.hook_attributes = { ...hook, url: env.WEBHOOK_PROXY_URL || `${baseUrl}${WEBHOOK_PATH}` };
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(page({ manifest, createAppUrl: creation.createAppUrl, org: env.GH_ORG?.trim() || undefined }));
    return true;
  };
}

/** Probot's own logger, as its `run` builds it from LOG_LEVEL and LOG_FORMAT (pretty outside production). */
async function probotLog(env: NodeJS.ProcessEnv): Promise<Logger> {
  const { getLog } = await probotModule<{
    getLog(options: { level?: string; logFormat?: 'json' | 'pretty' }): Promise<Logger>;
  }>('helpers/get-log.js');
  return getLog({ level: env.LOG_LEVEL, logFormat: env.LOG_FORMAT === 'json' ? 'json' : 'pretty' });
}

/**
 * The registration server: the App's page first, then Probot's flow for the rest. `before` writes to the
 * server's log before it starts listening (why these pages run instead of the App).
 */
export async function startSetup(
  env: NodeJS.ProcessEnv,
  options: { before?: (log: Logger) => void } = {},
): Promise<Server> {
  const { setupAppFactory } = await probotModule<ProbotSetup>('apps/setup.js');
  const host = env.HOST || 'localhost';
  const port = Number(env.PORT) || 3000;
  const log = await probotLog(env);
  options.before?.(log);
  const server = new Server({
    host,
    port,
    log,
    webhookProxy: env.WEBHOOK_PROXY_URL,
    // Never used in setup mode; Probot's own `run` passes the same kind of stand-in (its #1512).
    Probot: Probot.defaults({ appId: 1, privateKey: 'dummy value for setup, see #1512' }),
  });
  await server.loadHandlerFactory(() => registrationPage(env));
  await server.loadHandlerFactory((probot) =>
    setupAppFactory({ host, port, log: probot.log.child({ name: 'setup' }) })(),
  );
  await server.start();
  return server;
}
