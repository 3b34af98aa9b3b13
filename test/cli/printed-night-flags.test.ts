/**
 * A printed `iterate` command carries the night settings the operator typed (docs/cli.md § Printed
 * commands): pasted, it runs the same night — the same worktree home, trials, margin, keep rule, budgets —
 * not one on the defaults. `evals init` has none of those flags and gets none.
 */
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { iterateCommand } from '../../src/cli/commands/iterate.js';
import { main } from '../../src/cli/main.js';
import {
  evalsInitCommand,
  iterateCommandLine,
  settingFlags,
  type CommandSetting,
} from '../../src/core/iterate/skill-layout.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { printedCommand, shellWords } from '../helpers/pasted-command.js';
import { addSkill, captureIo, git, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

afterEach(removeTempDirs);

const NOW = new Date('2026-05-24T08:00:00Z');

/** The options the real `iterate` command parses from `argv` (words after `iterate`), run from `cwd`. */
async function parsedOptions(argv: string[], cwd: string): Promise<IterateOptions> {
  let seen: IterateOptions | undefined;
  const command = iterateCommand(captureIo(cwd), (_io, _flags, options) => {
    seen = options;
    return Promise.resolve();
  }).exitOverride();
  await command.parseAsync(argv, { from: 'user' });
  if (!seen) throw new Error(`iterate ${argv.join(' ')} parsed no options`);
  return seen;
}

/** The words of a printed `skillclimb iterate …` after `iterate`, as a shell splits them. */
function pastedArgv(line: string): string[] {
  const words = shellWords(line);
  expect(words.slice(0, 2)).toEqual(['skillclimb', 'iterate']);
  return words.slice(2);
}

/** Every option that decides which night runs (not which skill, and not how it prints). */
const NIGHT_SETTINGS = [
  'project',
  'skills',
  'mode',
  'calibrate',
  'worktreeHome',
  'perSkillBudgetMs',
  'perSkillIterations',
  'trials',
  'margin',
  'keepRule',
  'minGain',
  'concurrency',
  'maxCostUsd',
  'nightBudgetUsd',
  'killSwitchReadError',
  'skipList',
] as const satisfies ReadonlyArray<keyof IterateOptions>;

function nightOf(options: IterateOptions): Record<string, unknown> {
  return Object.fromEntries(NIGHT_SETTINGS.map((key) => [key, options[key]]));
}

describe('settingFlags: the night settings', () => {
  const setting: CommandSetting = {
    project: 'my-skills',
    night: {
      worktreeHome: '/big/disk',
      trials: '5',
      margin: '1.50',
      keepRule: 'original',
      minGain: '0.0000001',
      perSkillBudget: '90m',
      perSkillIterations: '20',
      concurrency: '3',
      maxCostUsd: '2.5',
      nightBudget: '40',
      killSwitchReadError: 'continue',
      skipList: 'alpha,beta',
    },
  };

  it('a printed iterate command carries each one typed, as typed, after the other flags', () => {
    expect(iterateCommandLine('--skill pdf --ignore-freshness', setting)).toBe(
      'skillclimb iterate --skill pdf --ignore-freshness --project my-skills --worktree-home /big/disk ' +
        '--per-skill-budget 90m --per-skill-iterations 20 --trials 5 --margin 1.50 --keep-rule original ' +
        '--min-gain 0.0000001 --concurrency 3 --max-cost-usd 2.5 --night-budget 40 ' +
        '--kill-switch-read-error continue --skip-list alpha,beta',
    );
  });

  it('only those typed, and none when none was', () => {
    expect(settingFlags({ night: { trials: '2' } }, 'iterate')).toBe(' --trials 2');
    expect(settingFlags({ night: {} }, 'iterate')).toBe('');
    expect(iterateCommandLine('--dry-run', { project: 'p', night: {} })).toBe(
      'skillclimb iterate --dry-run --project p',
    );
  });

  it('shell-quotes a value the shell would split or expand', () => {
    expect(settingFlags({ night: { worktreeHome: "big disk/it's here" } }, 'iterate')).toBe(
      ` --worktree-home 'big disk/it'\\''s here'`,
    );
    expect(settingFlags({ night: { worktreeHome: '$HOME/trees' } }, 'iterate')).toBe(
      ` --worktree-home '$HOME/trees'`,
    );
    expect(shellWords(settingFlags({ night: { worktreeHome: "big disk/it's here" } }, 'iterate'))).toEqual([
      '--worktree-home',
      "big disk/it's here",
    ]);
  });

  it('a printed evals init gets none of them: it has no such flag, and commander would refuse it', () => {
    expect(settingFlags(setting, 'evals init')).toBe(' --project my-skills');
    expect(evalsInitCommand('pdf', '--force', setting)).toBe(
      'skillclimb evals init pdf --force --project my-skills',
    );
  });
});

describe('a printed iterate command, pasted, runs the same night', () => {
  it('every night setting typed comes back the same, relative paths and texts as typed', async () => {
    const cwd = await makeTempDir();
    const original = await parsedOptions(
      [
        '--project',
        'my skills',
        '--skills',
        'skills/*',
        '--mode',
        'absolute',
        '--calibrate',
        '--worktree-home',
        'big disk/trees',
        '--per-skill-budget',
        ' 90m',
        '--per-skill-iterations',
        '20',
        '--trials',
        '5',
        '--margin',
        '1.50',
        '--keep-rule',
        'original',
        '--min-gain',
        '0.0000001',
        '--concurrency',
        '3',
        '--max-cost-usd',
        '2.5',
        '--night-budget',
        '40',
        '--kill-switch-read-error',
        'continue',
        '--skip-list',
        'alpha,beta',
        '--skip-list',
        'gamma',
      ],
      cwd,
    );
    const line = iterateCommandLine('--skill pdf --ignore-freshness', original.command);
    const pasted = await parsedOptions(pastedArgv(line), cwd);
    expect(nightOf(pasted)).toEqual(nightOf(original));
    expect(original.worktreeHome).toBe(path.join(cwd, 'big disk', 'trees'));
    expect(original.trials).toBe(5);
    expect(pasted.skill).toBe('pdf');
    expect(pasted.ignoreFreshness).toBe(true);
    // As typed: the budget's text, the relative path, the margin's digits, a gain a number would print as 1e-7.
    expect(line).toContain(" --worktree-home 'big disk/trees' --per-skill-budget 90m ");
    expect(line).toContain(' --margin 1.50 ');
    expect(line).toContain(' --min-gain 0.0000001 ');
    expect(line).toContain(' --skip-list alpha,beta,gamma');
    // And the command it prints in turn carries the same settings.
    expect(pasted.command?.night).toEqual(original.command?.night);
  });

  it('a flag left to its default is not printed: the pasted command has the same default', async () => {
    const cwd = await makeTempDir();
    const original = await parsedOptions(['--project', 'p'], cwd);
    expect(iterateCommandLine('--dry-run', original.command)).toBe(
      'skillclimb iterate --dry-run --project p',
    );
  });

  it('--queue is not carried: commander refuses it beside the --skill a printed command names', async () => {
    const cwd = await makeTempDir();
    const original = await parsedOptions(['--queue', 'tonight.txt', '--trials', '2'], cwd);
    const line = iterateCommandLine('--skill pdf --ignore-freshness', original.command);
    expect(line).toBe('skillclimb iterate --skill pdf --ignore-freshness --trials 2');
    const pasted = await parsedOptions(pastedArgv(line), cwd);
    expect(pasted.trials).toBe(2);
    expect(pasted.queueFile).toBeUndefined();
  });
});

describe('skillclimb iterate: the "to run it now" line', () => {
  it('carries --worktree-home, --trials and --margin as typed, and pasted runs the same night', async () => {
    const project = await makeTempDir();
    await git(project, 'init', '-q');
    await addSkill(project, 'recent', { resultsMtime: new Date(NOW.getTime() - 60_000) });
    const home = await makeTempDir();
    const argv = [
      '--project',
      project,
      '--dry-run',
      '--worktree-home',
      home,
      '--trials',
      '2',
      '--margin',
      '1.5',
    ];
    const io = captureIo(os.tmpdir(), NOW);
    expect(await main(['iterate', ...argv], io)).toBe(0);
    const original = await parsedOptions(argv, os.tmpdir());
    const pasted = await parsedOptions(printedCommand(io.stdout(), 'iterate').slice(1), os.tmpdir());
    expect(nightOf(pasted)).toEqual(nightOf(original));
    expect(pasted).toMatchObject({ worktreeHome: home, trials: 2, margin: 1.5, skill: 'recent' });
    expect(io.stdout()).toContain(
      `to run it now: \`skillclimb iterate --skill recent --ignore-freshness --project ${project} ` +
        `--worktree-home ${home} --trials 2 --margin 1.5\``,
    );
  });
});
