import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Paths the architecture change (issue 8) creates, each with the file it replaces. Until the move lands,
 * the old file stands in; once the new one exists its entry must go (the test says so), so a page can
 * never point at a path that exists in neither shape.
 */
const ARRIVING: Readonly<Record<string, string>> = {
  'src/adapters/local/': 'src/iterate/local-ports.ts',
  'src/adapters/local/park-files.ts': 'src/iterate/local-forge.ts',
  'src/adapters/local/shipper.ts': 'src/iterate/local-shipper.ts',
  'src/adapters/local/kill-switch-file.ts': 'src/iterate/kill-switch.ts',
  'src/adapters/local/mtime-freshness.ts': 'src/iterate/freshness.ts',
  'src/adapters/local/lock.ts': 'src/iterate/lock.ts',
  'src/ports/git.ts': 'src/git/client.ts',
};

/** The pages whose `src/…` paths a reader will look for. */
async function pages(): Promise<string[]> {
  const docs = (await readdir('docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs].filter((f) => existsSync(f));
}

/** Every `src/…` path a page mentions, with the pages that mention it. */
async function mentionedPaths(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const page of await pages()) {
    const text = await readFile(page, 'utf8');
    for (const match of text.matchAll(/(?<![\w./-])src\/[A-Za-z0-9_./-]*/g)) {
      // A sentence's full stop or a trailing comma is not part of the path.
      const mentioned = match[0].replace(/[.,]+$/, '');
      found.set(mentioned, [...(found.get(mentioned) ?? []), page]);
    }
  }
  return found;
}

describe('src/ paths in the documentation', () => {
  it('finds paths to check (the pages do cite source files)', async () => {
    expect((await mentionedPaths()).size).toBeGreaterThan(20);
  });

  it('every src/ path a page mentions exists', async () => {
    const missing: string[] = [];
    for (const [mentioned, where] of await mentionedPaths()) {
      const standIn = ARRIVING[mentioned];
      if (existsSync(mentioned) || (standIn !== undefined && existsSync(standIn))) continue;
      missing.push(`${mentioned}  (in ${[...new Set(where)].join(', ')})`);
    }
    expect(missing, `paths the docs mention that do not exist:\n${missing.join('\n')}`).toEqual([]);
  });

  it('no stand-in outlives the move it waits for', () => {
    const landed = Object.keys(ARRIVING).filter((target) => existsSync(path.normalize(target)));
    expect(landed, `these exist now; delete their ARRIVING entries: ${landed.join(', ')}`).toEqual([]);
  });
});
