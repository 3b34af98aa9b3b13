/**
 * How the commands the CLI prints start (docs/cli.md § Printed commands): `npx skillclimb` under npx, the
 * bare `skillclimb` when that is what PATH runs, else `node <absolute bin>`. The PATH cases use real files
 * and symlinks in a temporary folder.
 */
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { programName } from '../../src/cli/program-name.js';
import { makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

afterEach(removeTempDirs);

/** An installed package: `<root>/lib/node_modules/skillclimb/bin/skillclimb.js`, executable. */
async function installedBin(root: string): Promise<string> {
  const bin = path.join(root, 'lib', 'node_modules', 'skillclimb', 'bin', 'skillclimb.js');
  await mkdir(path.dirname(bin), { recursive: true });
  await writeFile(bin, '#!/usr/bin/env node\n');
  await chmod(bin, 0o755);
  return bin;
}

/** `<root>/<folder>/skillclimb`, a symlink to `target`, as npm links a global install's bin. */
async function linkOnPath(root: string, folder: string, target: string): Promise<string> {
  const dir = path.join(root, folder);
  await mkdir(dir, { recursive: true });
  const link = path.join(dir, 'skillclimb');
  await symlink(target, link);
  return dir;
}

describe('programName', () => {
  it('is `npx skillclimb` when npm exec runs the bin it installed or linked', () => {
    const env = { npm_command: 'exec', PATH: '/usr/bin' };
    expect(programName('/home/me/.npm/_npx/12e36caf/node_modules/.bin/skillclimb', env, '/work')).toBe(
      'npx skillclimb',
    );
    // npm's Windows shim runs the package's own file with node.
    expect(programName('/work/proj/node_modules/skillclimb/bin/skillclimb.js', env, '/work/proj')).toBe(
      'npx skillclimb',
    );
    // An npm script running a local install's bin link: npx runs the same install from that folder.
    expect(
      programName('/work/proj/node_modules/.bin/skillclimb', { npm_command: 'run-script' }, '/work/proj'),
    ).toBe('npx skillclimb');
    expect(
      programName(
        '/work/proj/node_modules/.bin/skillclimb',
        { npm_command: 'run-script' },
        '/work/proj/docs',
      ),
    ).toBe('npx skillclimb');
    // Typed by hand from elsewhere: npx would not find that install there.
    expect(programName('/work/proj/node_modules/.bin/skillclimb', { PATH: '' }, '/work/other')).toBe(
      'node /work/proj/node_modules/.bin/skillclimb',
    );
  });

  it('is not npx when the environment only inherited npm_command=exec (node bin/skillclimb.js under npx vitest)', () => {
    expect(programName('/work/clone/bin/skillclimb.js', { npm_command: 'exec', PATH: '' }, '/')).toBe(
      'node /work/clone/bin/skillclimb.js',
    );
  });

  it('is `skillclimb` when the skillclimb on PATH is the running file, through symlinks either way', async () => {
    const root = await makeTempDir();
    const bin = await installedBin(root);
    const binDir = await linkOnPath(root, 'bin', bin);
    const env = { PATH: [path.join(root, 'empty'), binDir].join(path.delimiter) };
    // Started by name: node is given the link.
    expect(programName(path.join(binDir, 'skillclimb'), env, '/')).toBe('skillclimb');
    // Started as the file itself, the PATH entry a symlink to it: the same file.
    expect(programName(bin, env, '/')).toBe('skillclimb');
    // A link to the link still leads to the same file.
    const chained = await linkOnPath(root, 'other-bin', path.join(binDir, 'skillclimb'));
    expect(programName(bin, { PATH: chained }, '/')).toBe('skillclimb');
  });

  it('is `node <absolute bin>` when PATH has no skillclimb or another one', async () => {
    const root = await makeTempDir();
    const running = await installedBin(path.join(root, 'clone'));
    const other = await installedBin(path.join(root, 'global'));
    const otherDir = await linkOnPath(root, 'bin', other);
    expect(programName(running, { PATH: otherDir }, '/')).toBe(`node ${running}`);
    expect(programName(running, {}, '/')).toBe(`node ${running}`);
    // A folder named skillclimb on PATH is not a program.
    await mkdir(path.join(root, 'dirs', 'skillclimb'), { recursive: true });
    expect(programName(running, { PATH: path.join(root, 'dirs') }, '/')).toBe(`node ${running}`);
  });

  it('makes a relative bin absolute and quotes a path the shell would split', () => {
    expect(programName('bin/skillclimb.js', { PATH: '' }, '/work/clone')).toBe(
      'node /work/clone/bin/skillclimb.js',
    );
    expect(programName('/home/me/my tools/skillclimb/bin/skillclimb.js', { PATH: '' }, '/')).toBe(
      "node '/home/me/my tools/skillclimb/bin/skillclimb.js'",
    );
    expect(programName("/home/me/it's/bin/skillclimb.js", { PATH: '' }, '/')).toBe(
      "node '/home/me/it'\\''s/bin/skillclimb.js'",
    );
  });

  it('is `skillclimb` when there is no script to name (an embedded call)', () => {
    expect(programName(undefined, {}, '/')).toBe('skillclimb');
  });
});
