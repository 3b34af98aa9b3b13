/**
 * `skillclimb evals init <skill…> | --all`: writes a skill's evals/evals.json and evals/test_scenarios.json
 * with the configured model, checked against the eval-setup rules before anything is written
 * (docs/how-it-works.md § The queue). Exit 0 when every skill asked for got its files, 1 when a skill
 * was refused (or an explicitly named one skipped), 2 on bad usage, a bad config or no model.
 */
import path from 'node:path';
import { Command } from 'commander';
import { createAuthor, resolveAuthorModel } from '../../config/author-selection.js';
import { loadProjectModelConfig } from '../../config/project-models.js';
import { formatCost } from '../../core/iterate/summary.js';
import {
  DEFAULT_SKILLS_GLOBS,
  iterateCommandLine,
  type CommandSetting,
} from '../../core/iterate/skill-layout.js';
import { ZERO_USAGE, addUsage, totalTokens, type Usage } from '../../core/usage.js';
import { appendGitignoreLines, ignoredPaths } from '../../git/ignored.js';
import { repositoryRoot } from '../../git/repo.js';
import { findIgnoredEvals, ignoredEvalsHint, unignoreLines } from '../../iterate/ignored-evals.js';
import {
  initSkillEvals,
  repositoryEvalsFormat,
  selectEvalsTargets,
  type EvalsFormatChoice,
  type EvalsInitResult,
} from '../../iterate/evals-init.js';
import type { EvalsFormat } from '../../core/iterate/evals.js';
import { findSkills, outsideSkillsHint } from '../../iterate/skill-finder.js';
import type { StructuredOutputSetting } from '../../llm/structured-output.js';
import type { EvalsAuthor } from '../../ports/evals-author.js';
import {
  STRUCTURED_OUTPUT_HELP,
  evalsFormatArgument,
  holdoutsArgument,
  skillsArgument,
  structuredOutputArgument,
} from '../arguments.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { createCliLogger } from '../logger.js';
import { isErrorOfKind, messageOf } from '../../core/errors.js';

interface EvalsInitFlags {
  project?: string;
  skills?: string[];
  all?: boolean;
  force?: boolean;
  keepScenarios?: boolean;
  holdouts?: number;
  authorModel?: string;
  model?: string;
  editorModel?: string;
  structuredOutput?: StructuredOutputSetting;
  json?: boolean;
  unignore?: boolean;
  format?: EvalsFormat;
}

export interface EvalsCommandOptions {
  /** Injected by tests; defaults to the provider layer's author. */
  createAuthor?: typeof createAuthor;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `8,123 tokens, $0.0312` — or `cost unknown` when the model has no price. */
export function usageText(usage: Usage): string {
  const cost =
    usage.costUsd === null
      ? 'cost unknown (no price for the model)'
      : `estimated ${formatCost(usage.costUsd)}`;
  return `${count(usage.calls)} model call${usage.calls === 1 ? '' : 's'}, ${count(totalTokens(usage))} tokens, ${cost}`;
}

/** One line per skill: what was written (and what it holds), or why nothing was. */
export function resultLine(result: EvalsInitResult): string {
  if (result.status !== 'written') {
    // What a refusal cost: the answers asked for before it (none for a skip).
    const spent =
      result.attempts > 0
        ? `; ${result.attempts} answer${result.attempts === 1 ? '' : 's'} spent, ${usageText(result.usage)}`
        : '';
    return `${result.skill}: ${result.status}: ${result.reason ?? ''}${spent}`;
  }
  const s = result.summary;
  const discriminating = s ? `${Math.round(s.discrimination * 100)}% discriminating` : '';
  const holds = !s
    ? ''
    : result.format === 'agent-skills'
      ? ` in the Agent Skills format (${s.scenarios} evals with ${s.assertions} assertions, ${discriminating})`
      : ` (${s.assertions} assertions in ${s.categories} categories, ${discriminating}` +
        (s.scenarios > 0 ? `; ${s.scenarios} scenarios` : '') +
        ')';
  const answers = `${result.attempts} answer${result.attempts === 1 ? '' : 's'}`;
  return `${result.skill}: wrote ${result.files.join(' and ')}${holds}; ${answers}, ${usageText(result.usage)}`;
}

// eslint-disable-next-line max-lines-per-function -- the command's checks and the per-skill authoring loop share the model and the log; not yet split (issue 30 item 3)
async function runEvalsInit(
  io: CliIo,
  names: string[],
  flags: EvalsInitFlags,
  options: EvalsCommandOptions,
): Promise<void> {
  const log = createCliLogger(io, { json: flags.json === true });
  if (flags.all && names.length > 0) throw new UsageError('evals init: name skills or pass --all, not both');
  if (!flags.all && names.length === 0)
    throw new UsageError('evals init: name at least one skill, or pass --all');
  if (flags.keepScenarios && flags.format === 'agent-skills') {
    throw new UsageError(
      'evals init: --keep-scenarios keeps a test_scenarios.json, which only the original format has; ' +
        'drop --format agent-skills',
    );
  }

  const project = path.resolve(io.cwd, flags.project ?? '.');
  // What was typed, carried into the commands this prints (docs/cli.md § Printed commands).
  const setting: CommandSetting = {
    program: io.program,
    project: flags.project,
    skills: flags.skills,
    models: {
      model: flags.model,
      authorModel: flags.authorModel,
      editorModel: flags.editorModel,
      structuredOutput: flags.structuredOutput,
    },
  };
  let author: EvalsAuthor;
  let globs: readonly string[];
  try {
    const loaded = await loadProjectModelConfig({
      project,
      flags: { structuredOutput: flags.structuredOutput },
      env: io.env,
      log,
    });
    globs = flags.skills ?? loaded.config.skills ?? DEFAULT_SKILLS_GLOBS;
    const selection = resolveAuthorModel({ flags, config: loaded.config, env: io.env });
    author = (options.createAuthor ?? createAuthor)(selection, io.env, loaded.modelOptions);
    log.info(`evals init: author ${author.modelId} (${selection.source})`);
  } catch (err) {
    // A bad config (file and field named), a missing key, or no model at all: nothing has been asked yet.
    throw new UsageError(messageOf(err));
  }

  const repository = (await repositoryRoot(project)) ?? project;
  const found = await findSkills({ project, repository, globs });
  const targets = await selectEvalsTargets(project, found, {
    names,
    all: flags.all === true,
    force: flags.force === true,
    keepScenarios: flags.keepScenarios === true,
    setting,
  });
  if (targets.refused.length > 0) {
    throw new UsageError(targets.refused.map((r) => `${r.skill}: ${r.reason}`).join('\n'));
  }
  const hint = outsideSkillsHint(found, setting);
  if (hint !== undefined) log.warn(hint);
  // The shape new files get: the flag, else the one the repository's skills use, else the Agent Skills one.
  const inRepository = await repositoryEvalsFormat(project, found.skills);
  const format: EvalsFormatChoice =
    flags.format === undefined ? inRepository : { ...inRepository, format: flags.format, explicit: true };
  if (targets.skills.length === 0) {
    log.info(
      found.skills.length === 0
        ? `evals init: no skill folder with a SKILL.md matches the skills setting (${globs.join(', ')})` +
            (hint === undefined ? '' : '; see the warning above for the setting that finds them')
        : 'evals init: every skill the setting finds already has eval files (pass --force to write them again)',
    );
    if (flags.json) io.out('[]\n');
    io.exitCode = 0;
    return;
  }

  // Files git ignores are written, but `git add` refuses them: say so first, with the line that
  // un-ignores them, or add it (--unignore).
  let ignored = await findIgnoredEvals(ignoredPaths, repository, project, targets.skills);
  let unignored: string[] = [];
  if (ignored !== undefined && flags.unignore) {
    unignored = await appendGitignoreLines(repository, ignored.lines);
    log.info(`evals init: added ${unignoreLines(ignored)} (git ignored the eval files)`);
    ignored = await findIgnoredEvals(ignoredPaths, repository, project, targets.skills);
    if (ignored !== undefined)
      log.warn(`still ignored after that: ${ignored.rules.join('; ')}; edit those rules by hand`);
  } else if (ignored !== undefined) {
    log.warn(ignoredEvalsHint(ignored, '--unignore'));
  }

  const controller = new AbortController();
  const results: EvalsInitResult[] = [];
  let usage: Usage = ZERO_USAGE;
  for (const skill of targets.skills) {
    let result: EvalsInitResult;
    try {
      result = await initSkillEvals(
        skill,
        {
          project,
          repository,
          force: flags.force === true,
          keepScenarios: flags.keepScenarios === true,
          holdouts: flags.holdouts,
          format,
        },
        { author, log, signal: controller.signal },
      );
    } catch (err) {
      // A file swapped for a directory or a FIFO since the targets were checked: refused by name, exit 2.
      if (isErrorOfKind(err, 'input-file')) throw new UsageError(err.message);
      throw err;
    }
    results.push(result);
    usage = addUsage(usage, result.usage);
    (result.status === 'written' ? log.info : log.warn)(resultLine(result));
  }
  const by = (status: EvalsInitResult['status']) => results.filter((r) => r.status === status).length;
  log.info(
    `evals init: ${by('written')} written, ${by('skipped')} skipped, ${by('refused')} refused; ${usageText(usage)}`,
  );
  if (by('written') > 0) {
    const next = iterateCommandLine('--dry-run', setting);
    const gitignore = unignored.length > 0 ? ` with ${unignored.join(' and ')}` : '';
    log.info(
      ignored !== undefined
        ? 'Review the files (every assertion decides what a night optimises). Git ignores them: add ' +
            `${unignoreLines(ignored)} (or run again with --unignore), then commit them and run \`${next}\`.`
        : 'Review the files (every assertion decides what a night optimises), commit them' +
            `${gitignore}, then run \`${next}\`.`,
    );
  }
  if (flags.json) io.out(`${JSON.stringify(results, null, 2)}\n`);
  const explicitSkip = !flags.all && by('skipped') > 0;
  io.exitCode = by('refused') > 0 || explicitSkip ? 1 : 0;
}

/** `skillclimb evals init`. */
export function evalsCommand(io: CliIo, options: EvalsCommandOptions = {}): Command {
  const init = new Command('init')
    .description(
      "Write a skill's eval files with a model, checked before they are written: evals/evals.json in the Agent " +
        'Skills format, or with evals/test_scenarios.json in the original format',
    )
    .argument('[skills...]', 'skill names (folder names the skills setting finds)')
    .option('--all', 'every skill the skills setting finds that has no eval files yet')
    .option('--project <path>', 'project whose skills to set up (default: current directory)')
    .option(
      '--skills <globs>',
      'comma-separated globs of skill folders, relative to the project (default: .claude/skills/*,.github/skills/review-loop-reviewer)',
      skillsArgument,
    )
    .option('--force', 'overwrite eval files that exist')
    .option(
      '--format <format>',
      'the shape of new eval files: agent-skills (one evals.json, as skill-creator writes it) or original ' +
        "(with test_scenarios.json); default: the one the repository's skills use, else agent-skills",
      evalsFormatArgument,
    )
    .option('--keep-scenarios', 'write evals.json only, fitted to the scenarios in test_scenarios.json')
    .option(
      '--holdouts <n>',
      'scenarios marked "holdout": true (never shown to the editor, scored only to confirm a gain) when three or more are written (default 1; 0: none)',
      holdoutsArgument,
    )
    .option('--author-model <id>', 'provider:model that writes the eval files')
    .option('--model <id>', 'provider:model for every role, the author included')
    .option('--editor-model <id>', "the editor's model, which writes them when no author model is set")
    .option('--structured-output <mode>', STRUCTURED_OUTPUT_HELP, structuredOutputArgument)
    .option('--json', 'print the results as JSON on stdout')
    .option('--unignore', 'add the .gitignore line that un-ignores the eval files when git ignores them')
    .action(async (names: string[], flags: EvalsInitFlags) => {
      await runEvalsInit(io, names, flags, options);
    });
  return new Command('evals').description('Set up eval files').addCommand(init);
}
