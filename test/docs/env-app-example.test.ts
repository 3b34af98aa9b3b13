/**
 * `.env.app.example` (the App's environment, docs/app.md § Environment): it names every variable the
 * App's source reads and the § Environment table lists, each once, the three required ones marked so;
 * copied as it is, it starts the registration pages, and with those three filled in, the App.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readAppEnv, readScaleEnv } from '../../src/app/config.js';
import { readCredentials } from '../../src/app/credentials.js';
import { PRIVATE_KEY } from '../helpers/app-fixtures.js';

const TEMPLATE = '.env.app.example';
const REQUIRED = ['APP_ID', 'PRIVATE_KEY', 'PRIVATE_KEY_PATH', 'WEBHOOK_SECRET'];
/** Read below src/app, by the model layer the App builds its models with (src/llm). */
const MODEL_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'SKILLCLIMB_PRICES',
];

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? sources(path.join(dir, entry.name))
        : Promise.resolve(entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : []),
    ),
  );
  return nested.flat();
}

/** Every variable src/app reads: `env.NAME`, `env['NAME']`, a reader given `(env, 'NAME'`, an error naming it. */
async function readBySource(): Promise<string[]> {
  const found = new Set<string>();
  const patterns = [
    /\benv\??\.([A-Z][A-Z0-9_]+)/g,
    /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
    /\(env, '([A-Z][A-Z0-9_]+)'/g,
    /const name = '([A-Z][A-Z0-9_]+)'/g,
  ];
  for (const file of await sources('src/app')) {
    const text = await readFile(file, 'utf8');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.add(match[1]!);
  }
  return [...found].sort();
}

/** The variables the table of docs/app.md § Environment names in its first column. */
async function documented(): Promise<string[]> {
  const doc = await readFile('docs/app.md', 'utf8');
  const section = doc.slice(
    doc.indexOf('\n## Environment'),
    doc.indexOf('\n## ', doc.indexOf('\n## Environment') + 1),
  );
  const names = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
  return [...new Set(names)].sort();
}

describe(TEMPLATE, () => {
  it('names every variable the App reads and docs/app.md lists, once each, and no other', async () => {
    const text = await readFile(TEMPLATE, 'utf8');
    const listed = text.split('\n').flatMap((line) => /^([A-Z][A-Z0-9_]+)=/.exec(line)?.[1] ?? []);
    expect(new Set(listed).size).toBe(listed.length);
    const read = await readBySource();
    expect(read).toEqual(expect.arrayContaining(['WEBHOOK_SECRET', 'REVIEW_LOOP_MAX_ROUNDS', 'REDIS_URL']));
    expect(listed).toEqual(expect.arrayContaining([...read, ...MODEL_VARIABLES]));
    expect([...listed].sort()).toEqual(await documented());
  });

  it('marks the required variables, and only them', async () => {
    const lines = (await readFile(TEMPLATE, 'utf8')).split('\n');
    const marked = lines.flatMap((line, at) => {
      const name = /^([A-Z][A-Z0-9_]+)=/.exec(line)?.[1];
      if (!name) return [];
      // the comment lines right above a variable describe it
      let first = at;
      while (first > 0 && lines[first - 1]!.startsWith('#')) first--;
      const comment = lines.slice(first, at).join(' ');
      return /REQUIRED/.test(comment) ? [name] : [];
    });
    expect(marked).toEqual(REQUIRED);
  });

  it('copied as it is, the App serves the registration pages; with the required values, it runs', async () => {
    const env = parseEnv(await readFile(TEMPLATE, 'utf8'));
    expect(() => readAppEnv(env)).not.toThrow();
    expect(readScaleEnv(env, (p) => path.resolve(p)).redisUrl).toBeUndefined();
    expect(readCredentials(env)).toBeUndefined();
    const filled = { ...env, APP_ID: '4242', PRIVATE_KEY, WEBHOOK_SECRET: 'a-secret-of-our-own' };
    expect(readCredentials(filled)).toMatchObject({ appId: 4242, webhookSecret: 'a-secret-of-our-own' });
  });
});
