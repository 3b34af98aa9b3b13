/**
 * Installing without a registry (the package is not published): `npm pack` of a clean copy of the
 * repository (so `prepare` builds build/ from nothing and `files` alone decides what ships), the tarball
 * installed into an empty project with `npm install --offline`, then `npx skillclimb --version` and
 * `score` run from there.
 *
 * No network: every npm command runs with `--offline` (npm's only-if-cached mode: it fails rather than
 * fetch). The tarballs come from the cache the project's own `npm ci` filled. That cache holds tarballs
 * but no registry metadata (`npm ci` installs from the lockfile and never asks the registry what versions
 * exist), so a bare `npm install --offline ./skillclimb-x.tgz` would stop at the first dependency
 * ("ENOTCACHED …/@actions%2fcore"). The empty project therefore gets a package-lock.json made from ours:
 * the tarball as its one dependency, plus every non-dev entry of our lockfile, which is exactly the tree
 * the tarball's dependencies resolve to. npm then installs from the lockfile, by resolved URL and
 * integrity, which is what the cache holds.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';

const run = promisify(execFile);
const temp = tempDirs('skillclimb-install-', { resolveLinks: true });
afterAll(temp.removeAll);

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** npm never asks the registry (only-if-cached), and stays quiet about audits and funding. */
const NPM_ENV = {
  ...process.env,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

interface LockFile {
  packages: Record<string, { dev?: boolean; devOptional?: boolean } & Record<string, unknown>>;
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
  // The build tools (typescript for `prepare`) from this checkout; the copy itself has no build/.
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

/** package.json and a package-lock.json that pin the tarball and our production dependency tree. */
async function projectFor(dir: string, tarball: string): Promise<void> {
  const ours = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;
  const spec = `file:${tarball}`;
  const packages: LockFile['packages'] = {
    '': { name: 'empty-project', version: '1.0.0', dependencies: { skillclimb: spec } },
    'node_modules/skillclimb': {
      version: ours.version,
      resolved: spec,
      license: ours.license,
      dependencies: ours.dependencies,
      bin: ours.bin,
      engines: ours.engines,
    },
  };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === '' || entry.dev === true || entry.devOptional === true) continue;
    packages[key] = entry;
  }
  const manifest = {
    name: 'empty-project',
    version: '1.0.0',
    private: true,
    dependencies: { skillclimb: spec },
  };
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(
    path.join(dir, 'package-lock.json'),
    `${JSON.stringify({ name: 'empty-project', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}

describe('install without a registry', () => {
  it('npm pack, npm install --offline into an empty project, then npx skillclimb --version and score', async () => {
    const source = await temp.make();
    await copyRepository(source);
    const packs = await temp.make();
    // `npm pack` runs `prepare` (the TypeScript build) in the clean copy.
    const packed = await run('npm', ['pack', '--pack-destination', packs], { cwd: source, env: NPM_ENV });
    const tarball = packed.stdout.trim().split('\n').pop()!;
    expect(tarball).toMatch(/^skillclimb-\d+\.\d+\.\d+\.tgz$/);
    const listing = (
      await run('tar', ['tzf', path.join(packs, tarball)], { maxBuffer: 16 * 1024 * 1024 })
    ).stdout
      .split('\n')
      .filter(Boolean);
    for (const file of [
      'bin/skillclimb.js',
      'build/cli/main.js',
      'dist/index.js',
      'action.yml',
      'package.json',
    ]) {
      expect(listing, file).toContain(`package/${file}`);
    }
    // `files` keeps the sources, the tests and the examples out of the package.
    expect(listing.filter((f) => /^package\/(src|test|examples|scripts)\//.test(f))).toEqual([]);

    const project = await temp.make();
    await cp(path.join(packs, tarball), path.join(project, tarball));
    await projectFor(project, tarball);
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: project, env: NPM_ENV });
    expect(await readdir(path.join(project, 'node_modules', '.bin'))).toContain('skillclimb');

    const version = await run('npx', ['skillclimb', '--version'], { cwd: project, env: NPM_ENV });
    const ours = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version.stdout).toBe(`${ours.version}\n`);

    const skill = path.join(project, 'skills', 'demo');
    await mkdir(skill, { recursive: true });
    await writeFile(
      path.join(skill, 'SKILL.md'),
      '---\nname: demo\ndescription: A demo skill.\n---\n# Demo\n\n## Steps\n\nUse the tool.\nThe tool is fast.\n',
    );
    const scored = await run(
      'npx',
      ['skillclimb', 'score', 'skills/demo', '--mode', 'structural', '--json'],
      {
        cwd: project,
        env: { ...NPM_ENV, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' },
      },
    );
    const doc = JSON.parse(scored.stdout) as { status: string; mode: string; score: number };
    expect(doc).toMatchObject({ status: 'ok', mode: 'structural' });
    expect(doc.score).toBeGreaterThan(0);
  }, 300_000);
});
