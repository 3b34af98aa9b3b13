/**
 * Installing without a registry (the package is not published): `npm pack` of a clean copy of the
 * repository (so `prepare` bundles the CLI from nothing and `files` alone decides what ships), the tarball
 * installed with `npm install --offline` into an empty project and globally into a prefix, then
 * `skillclimb --version`, `--help` and `score` run from there, and once as `npx --package=<tarball>`.
 *
 * The package declares no dependencies (CONTRIBUTING.md § Packaging): the CLI is one esbuild bundle with
 * every package inlined, so an install fetches nothing and no dependency's `engines` can warn on the
 * README's Node version (EBADENGINE). That is what makes these installs work offline: every npm command
 * runs with `--offline` (npm's only-if-cached mode, which fails rather than fetch) and a dead proxy, so a
 * dependency added back to package.json fails the install ("ENOTCACHED") as well as the first assertion.
 */
import { execFile } from 'node:child_process';
import { cp, readFile, readdir, symlink, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';

const run = promisify(execFile);
const temp = tempDirs('skillclimb-install-', { resolveLinks: true });
afterAll(temp.removeAll);

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** npm never asks the registry (only-if-cached; anything else goes to a dead proxy), and stays quiet. */
const NPM_ENV = {
  ...process.env,
  npm_config_offline: 'true',
  npm_config_proxy: 'http://127.0.0.1:9',
  npm_config_https_proxy: 'http://127.0.0.1:9',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  ANTHROPIC_API_KEY: '',
  OPENAI_API_KEY: '',
};

interface PackedManifest {
  version: string;
  bin: Record<string, string>;
  engines: { node: string };
  [field: string]: unknown;
}

/** The repository's files as git sees them (tracked, and new files not ignored), copied to `dir`. */
async function copyRepository(dir: string): Promise<void> {
  const { stdout } = await run(
    'git',
    ['-C', ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  for (const file of stdout.split('\0').filter(Boolean)) {
    await cp(path.join(ROOT, file), path.join(dir, file), { recursive: true, force: true }).catch(
      (err: unknown) => {
        // A file deleted in the working tree but still in the index is not part of the package.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      },
    );
  }
  // The build tools (esbuild for `prepare`) and the bundled packages from this checkout; the copy itself
  // has no bundle/ and no build/.
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

/** An npm warning about a package's `engines` (npm prints EBADENGINE for each). */
const engineWarnings = (output: string) => output.split('\n').filter((line) => line.includes('EBADENGINE'));

describe('install without a registry', () => {
  it('npm pack gives a package with no dependencies whose bundled CLI runs from an offline install, a global prefix and npx --package', async () => {
    const source = await temp.make();
    await copyRepository(source);
    const packs = await temp.make();
    // `npm pack` runs `prepare` (the CLI's bundle) in the clean copy.
    const packed = await run('npm', ['pack', '--pack-destination', packs], { cwd: source, env: NPM_ENV });
    const tarball = packed.stdout.trim().split('\n').pop()!;
    expect(tarball).toMatch(/^skillclimb-\d+\.\d+\.\d+\.tgz$/);
    const tgz = path.join(packs, tarball);
    const listing = (await run('tar', ['tzf', tgz], { maxBuffer: 16 * 1024 * 1024 })).stdout
      .split('\n')
      .filter(Boolean);

    // The package.json users install: nothing for npm to fetch, the README's Node version.
    const manifest = JSON.parse(
      (await run('tar', ['xzfO', tgz, 'package/package.json'], { maxBuffer: 1024 * 1024 })).stdout,
    ) as PackedManifest;
    const ours = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as PackedManifest;
    for (const field of [
      'dependencies',
      'optionalDependencies',
      'peerDependencies',
      'bundleDependencies',
      'bundledDependencies',
    ]) {
      expect(manifest[field], `${field} in the packed package.json`).toBeUndefined();
    }
    expect(manifest.engines).toEqual({ node: '>=20.18.1' });
    expect(manifest.version).toBe(ours.version);

    // Every file `bin` names ships, and so does what it runs; `files` keeps everything else out.
    expect(Object.keys(manifest.bin)).toEqual(['skillclimb']);
    for (const file of Object.values(manifest.bin)) expect(listing, file).toContain(`package/${file}`);
    for (const file of ['bundle/cli/main.js', 'dist/index.js', 'action.yml', 'package.json']) {
      expect(listing, file).toContain(`package/${file}`);
    }
    expect(
      listing.filter((f) => /^package\/(src|test|examples|scripts|build|node_modules)\//.test(f)),
    ).toEqual([]);

    // Into an empty project: npm adds one package, fetches nothing, warns about no engine.
    const project = await temp.make();
    await writeFile(
      path.join(project, 'package.json'),
      `${JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true }, null, 2)}\n`,
    );
    const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tgz], {
      cwd: project,
      env: NPM_ENV,
    });
    expect(engineWarnings(installed.stdout + installed.stderr)).toEqual([]);
    expect(installed.stdout).toContain('added 1 package');
    expect((await readdir(path.join(project, 'node_modules'))).filter((f) => !f.startsWith('.'))).toEqual([
      'skillclimb',
    ]);

    // `--version` has a fast path in bin/skillclimb.js; `-v --help` goes through the bundled CLI's own
    // answer (commander prints the version first and stops).
    expect((await run('npx', ['skillclimb', '--version'], { cwd: project, env: NPM_ENV })).stdout).toBe(
      `${ours.version}\n`,
    );
    expect((await run('npx', ['skillclimb', '-v', '--help'], { cwd: project, env: NPM_ENV })).stdout).toBe(
      `${ours.version}\n`,
    );
    const help = await run('npx', ['skillclimb', 'score', '--help'], { cwd: project, env: NPM_ENV });
    expect(help.stdout).toMatch(/^Usage: skillclimb score /);

    const skill = path.join(project, 'skills', 'demo');
    await mkdir(skill, { recursive: true });
    await writeFile(
      path.join(skill, 'SKILL.md'),
      '---\nname: demo\ndescription: A demo skill.\n---\n# Demo\n\n## Steps\n\nUse the tool.\nThe tool is fast.\n',
    );
    const scored = await run(
      'npx',
      ['skillclimb', 'score', 'skills/demo', '--mode', 'structural', '--json'],
      { cwd: project, env: NPM_ENV },
    );
    const doc = JSON.parse(scored.stdout) as { status: string; mode: string; score: number };
    expect(doc).toMatchObject({ status: 'ok', mode: 'structural' });
    expect(doc.score).toBeGreaterThan(0);

    // Globally into a prefix, as `npm i -g <tarball>` does.
    const prefix = await temp.make();
    const global = await run('npm', ['install', '-g', '--prefix', prefix, '--offline', tgz], {
      env: NPM_ENV,
    });
    expect(engineWarnings(global.stdout + global.stderr)).toEqual([]);
    const bin = path.join(prefix, 'bin', 'skillclimb');
    expect((await run(bin, ['--version'], { env: NPM_ENV })).stdout).toBe(`${ours.version}\n`);
    expect((await run(bin, ['--help'], { env: NPM_ENV })).stdout).toMatch(/^Usage: skillclimb /);

    // The README's one-off form, in a folder with no package.json, node_modules or npm cache of its own.
    const elsewhere = await temp.make();
    const oneOff = await run('npx', ['--yes', `--package=${tgz}`, '--', 'skillclimb', '--version'], {
      cwd: elsewhere,
      env: { ...NPM_ENV, npm_config_cache: path.join(elsewhere, '.npm-cache') },
    });
    expect(oneOff.stdout).toBe(`${ours.version}\n`);
    expect(engineWarnings(oneOff.stderr)).toEqual([]);
  }, 240_000);
});
