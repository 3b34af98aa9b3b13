/**
 * A printed next step works when pasted (docs/cli.md § Printed commands), whatever started the CLI: as
 * `npm run demo` does, `node <clone>/bin/skillclimb.js iterate` (the package's own bin beside a compiled
 * build/, in a folder whose name has a space) runs a night on a small offline workspace whose skill
 * plateaus; the morning summary's `… iterate --skill <skill> --ignore-freshness …` is then run by `sh -c`
 * exactly as printed, from the same folder. With nothing installed on PATH a bare `skillclimb` there
 * would be "command not found".
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCloneBin, childEnv, type ChildEnd } from '../helpers/cli-child.js';
import { cleanupTempDirs, git, tempDir } from '../helpers/engine-fixtures.js';
import { shellWords } from '../helpers/pasted-command.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SKILL = 'session-wrap';
const SKILLS = path.join('.claude', 'skills');

let bin: string;

beforeAll(async () => {
  bin = await buildCloneBin();
}, 120_000);

afterAll(cleanupTempDirs);

/** Runs `file args…` in `cwd` to its end. */
function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ChildEnd> {
  const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise<ChildEnd>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** `<parent>/ws`: the example workspace's session-wrap skill alone, committed on main. */
async function workspace(): Promise<{ parent: string; project: string }> {
  const parent = await tempDir('skillclimb-pasted-');
  const project = path.join(parent, 'ws');
  await mkdir(path.join(project, SKILLS), { recursive: true });
  await cp(path.join(ROOT, 'examples', 'workspace', SKILLS, SKILL), path.join(project, SKILLS, SKILL), {
    recursive: true,
  });
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '-A');
  git(project, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'skills');
  return { parent, project };
}

async function summaries(project: string): Promise<string[]> {
  const dir = path.join(project, 'docs', 'skill-iterate-runs');
  return (await readdir(dir))
    .filter((f) => /^\d{4}-\d\d-\d\d[b-z]?\.md$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

describe('a command the morning summary prints, pasted into a shell', () => {
  it('runs with the same program that started the night', async () => {
    const { parent, project } = await workspace();
    // Worktrees go to the home folder by default: a temporary one, so the pasted command needs no extra words.
    const home = path.join(parent, 'home');
    await mkdir(home);
    const env = childEnv({ HOME: home });

    const night = await run(
      process.execPath,
      [bin, 'iterate', '--project', 'ws', '--per-skill-iterations', '2', '--model', 'offline'],
      parent,
      env,
    );
    expect(night.code, night.stderr).toBe(0);
    const [first] = await summaries(project);
    const summary = await readFile(first!, 'utf8');
    const printed = [...summary.matchAll(/`([^`]* iterate --skill [^`]*--ignore-freshness[^`]*)`/g)].map(
      (m) => m[1]!,
    );
    expect(printed).toHaveLength(1);
    const command = printed[0]!;
    expect(shellWords(command)).toEqual([
      'node',
      bin,
      'iterate',
      '--skill',
      SKILL,
      '--ignore-freshness',
      '--project',
      'ws',
      // The night setting typed: the pasted night has the same cap (docs/cli.md § Printed commands).
      '--per-skill-iterations',
      '2',
    ]);
    // A structure-only night's plateau points at a night with a model (a key in the environment), not at
    // calibration or new evals, which its score never read; without a key the pasted command runs offline.
    expect(summary).toContain('set ANTHROPIC_API_KEY or OPENAI_API_KEY and run the command after each skill');
    expect(summary).not.toContain('--calibrate');

    const pasted = await run('sh', ['-c', command], parent, env);
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout).toMatch(new RegExp(`^${SKILL}\\s+done\\s`, 'm'));
    const after = await summaries(project);
    expect(after).toHaveLength(2);
    expect(
      await readFile(
        after.find((f) => f !== first)!,
        'utf8',
      ),
    ).toContain('Processed 1 of 1 queued skill');
  }, 120_000);
});
