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
 *
 * The one-off form the README gives for a project without skillclimb, `npx --yes --package=<tarball>
 * skillclimb …`, resolves its dependencies by name, which needs registry metadata. It runs against a
 * stand-in registry on 127.0.0.1: the packuments are made from our lockfile's production entries, and the
 * tarballs are read from the npm cache by integrity. Any other address goes to a dead proxy.
 */
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { cp, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../helpers/local-http.js';
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

type LockEntry = LockFile['packages'][string] & { version?: string; integrity?: string };

/**
 * A registry on 127.0.0.1 that knows exactly our production dependency tree: `GET /<name>` answers a
 * packument listing the lockfile's versions of that package, `GET /-/<name>/<version>.tgz` the tarball
 * from the npm cache `cache` (content-addressed by the lockfile's integrity).
 */
async function registryStandIn(
  lock: LockFile,
  cache: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const packages = new Map<string, { latest: string | undefined; versions: Map<string, LockEntry> }>();
  for (const [key, entry] of Object.entries(lock.packages) as Array<[string, LockEntry]>) {
    if (key === '' || entry.dev || entry.devOptional || entry.link || entry.inBundle || !entry.integrity)
      continue;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const known = packages.get(name) ?? { latest: undefined, versions: new Map<string, LockEntry>() };
    if (key === `node_modules/${name}`) known.latest = entry.version;
    known.versions.set(String(entry.version), entry);
    packages.set(name, known);
  }
  const contentPath = (integrity: string) => {
    const [algorithm, digest] = integrity.split(' ')[0]!.split(/-(.*)/s) as [string, string];
    const hex = Buffer.from(digest, 'base64').toString('hex');
    return path.join(
      cache,
      '_cacache',
      'content-v2',
      algorithm,
      hex.slice(0, 2),
      hex.slice(2, 4),
      hex.slice(4),
    );
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://registry.test');
    const tarball = /^\/-\/(.+)\/([^/]+)\.tgz$/.exec(url.pathname);
    if (tarball) {
      const entry = packages.get(decodeURIComponent(tarball[1]!))?.versions.get(tarball[2]!);
      if (!entry?.integrity) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void createReadStream(contentPath(entry.integrity)).pipe(res);
    }
    const name = decodeURIComponent(url.pathname.slice(1));
    const known = packages.get(name);
    if (!known)
      return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    const versions: Record<string, unknown> = {};
    for (const [version, entry] of known.versions) {
      const { resolved: _r, integrity, dev: _d, devOptional: _o, license: _l, ...manifest } = entry;
      const file = `http://${req.headers.host}/-/${encodeURIComponent(name)}/${version}.tgz`;
      versions[version] = { ...manifest, name, version, dist: { tarball: file, integrity } };
    }
    const latest = known.latest ?? [...known.versions.keys()].pop();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name, 'dist-tags': { latest }, versions }));
  });
  const url = await listenOnLoopback(server);
  return { url, close: () => closeServer(server) };
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
  it('npm pack, npm install --offline into an empty project, then npx skillclimb --version and score; npx --package=<tarball> once', async () => {
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

    // The README's one-off form in a folder that has no package.json and no node_modules.
    const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;
    const cache = (await run('npm', ['config', 'get', 'cache'], { env: NPM_ENV })).stdout.trim();
    const registry = await registryStandIn(lock, cache);
    try {
      const elsewhere = await temp.make();
      const oneOff = await run(
        'npx',
        [
          '--loglevel=http',
          '--yes',
          `--package=${path.join(packs, tarball)}`,
          '--',
          'skillclimb',
          '--version',
        ],
        {
          cwd: elsewhere,
          env: {
            ...NPM_ENV,
            npm_config_offline: 'false',
            npm_config_registry: `${registry.url}/`,
            // A cache of its own: npx installs the package there, fetching from the stand-in.
            npm_config_cache: path.join(elsewhere, '.npm-cache'),
            npm_config_proxy: 'http://127.0.0.1:9',
            npm_config_https_proxy: 'http://127.0.0.1:9',
            npm_config_noproxy: '127.0.0.1',
          },
        },
      );
      expect(oneOff.stdout).toBe(`${ours.version}\n`);
      const fetched = oneOff.stderr.split('\n').filter((line) => line.startsWith('npm http fetch'));
      expect(fetched.length).toBeGreaterThan(0);
      expect(fetched.filter((line) => !line.includes(` ${registry.url}/`))).toEqual([]);
    } finally {
      await registry.close();
    }
  }, 420_000);
});
