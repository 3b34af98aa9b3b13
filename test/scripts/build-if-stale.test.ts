/**
 * `npm start`'s prestart (scripts/build-if-stale.mjs, docs/app.md § Deploy): a current build is started
 * as it is; a source changed or added since, or a tsconfig changed, builds first. Run as npm runs it, in
 * a package folder of its own whose `build` script leaves a mark instead of compiling.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve('scripts/build-if-stale.mjs');
const HOUR_AGO = new Date(Date.now() - 3_600_000);
const NOW = new Date();

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-prestart-'));
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'prestart-fixture',
      private: true,
      scripts: { build: `node -e "require('fs').writeFileSync('built.mark', 'built')"` },
    }),
  );
  for (const [file, text, at] of [
    ['tsconfig.json', '{}', HOUR_AGO],
    ['tsconfig.build.json', '{"extends":"./tsconfig.json"}', HOUR_AGO],
    ['src/app/main.ts', "import './server.js';\n", HOUR_AGO],
    ['src/app/server.ts', 'export const port = 3000;\n', HOUR_AGO],
    ['src/types.d.ts', 'declare const x: number;\n', HOUR_AGO],
    ['build/app/main.js', "import './server.js';\n", NOW],
    ['build/app/server.js', 'export const port = 3000;\n', NOW],
    // a module since removed: its old output does not make the build stale
    ['build/app/removed.js', 'export {};\n', HOUR_AGO],
  ] as const) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
    await utimes(path.join(dir, file), at, at);
  }
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function prestart(): string {
  return execFileSync(process.execPath, [SCRIPT], { cwd: dir, encoding: 'utf8' });
}

describe('npm start does not rebuild a current build', () => {
  it('a build newer than every source is started as it is', () => {
    expect(prestart()).toBe(
      'build/ is up to date with src/; starting it (npm run build rebuilds it anyway)\n',
    );
    expect(existsSync(path.join(dir, 'built.mark'))).toBe(false);
  });

  it.each([
    ['a source changed since', 'src/app/server.ts', 'src/app/server.ts changed since it was built'],
    ['a new source', 'src/app/setup.ts', 'build/app/setup.js is missing'],
    ['a tsconfig changed', 'tsconfig.build.json', 'tsconfig.build.json changed since the build'],
  ])('%s: it builds first', async (_case, file, reason) => {
    const later = new Date(Date.now() + 60_000);
    await writeFile(path.join(dir, file), file.endsWith('.json') ? '{}' : 'export {};\n');
    await utimes(path.join(dir, file), later, later);
    expect(prestart()).toContain(`Building first: ${reason}`);
    expect(await readFile(path.join(dir, 'built.mark'), 'utf8')).toBe('built');
  });

  it('is what `npm start` runs before the App', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prestart).toBe('node scripts/build-if-stale.mjs');
    expect(pkg.scripts.start).toBe('node build/app/main.js');
  });
});
