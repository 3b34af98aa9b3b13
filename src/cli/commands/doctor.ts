/**
 * `skillclimb doctor`: checks each model role the commands will use — the three of a night and the author
 * `evals init` writes with — the key is present, the endpoint answers, one tiny structured call succeeds;
 * prints role, model, family, latency, and which endpoint and key each uses.
 * Exit 0 when every role passes (or everything is offline), 1 when one fails, 2 on a bad config or flag.
 * The checks themselves live in src/llm/doctor.ts (the Action runs them too).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { resolveAuthorModel } from '../../config/author-selection.js';
import {
  loadConfig,
  modelOptionsFromConfig,
  resolveModelSelection,
  structuredOutputSetting,
} from '../../config/config.js';
import {
  checkModels,
  doctorIdWidth,
  DoctorSelectionError,
  formatDoctorRow,
  type DoctorReport,
  type DoctorSelection,
} from '../../llm/doctor.js';
import type { ModelFactoryOptions } from '../../llm/factory.js';
import { redactSecrets, secretsFromEnv } from '../../core/text/redact.js';
import type { StructuredOutputSetting } from '../../llm/structured-output.js';
import { STRUCTURED_OUTPUT_HELP, structuredOutputArgument } from '../arguments.js';
import type { CliIo } from '../io.js';
import { doctorSkillsReport } from './doctor-skills.js';
import { messageOf } from '../../core/errors.js';

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

export interface DoctorDeps {
  /** Merged over what the config implies (tests inject retry sleeps, a fetch, short timeouts). */
  modelOptions?: ModelFactoryOptions;
  now?: () => number;
}

interface DoctorFlags {
  project?: string;
  model?: string;
  editorModel?: string;
  renderModel?: string;
  graderModel?: string;
  authorModel?: string;
  structuredOutput?: StructuredOutputSetting;
}

export function doctorCommand(io: CliIo, deps: DoctorDeps = {}): Command {
  return new Command('doctor')
    .description(
      'Check every model role (editor, render, grader, and the evals author): key present, endpoint reachable, one tiny structured call',
    )
    .option('--project <path>', 'project whose skillclimb.config.json to read (default: the current folder)')
    .option('--model <id>', 'model for all three roles (provider:model or offline)')
    .option('--editor-model <id>', 'editor model')
    .option('--render-model <id>', 'render model')
    .option('--grader-model <id>', 'grader model')
    .option('--author-model <id>', 'model that writes eval files (evals init)')
    .option('--structured-output <mode>', STRUCTURED_OUTPUT_HELP, structuredOutputArgument)
    .action(async (flags: DoctorFlags) => {
      const project = path.resolve(io.cwd, flags.project ?? '.');
      // A mistyped --project must not pass as "no config here": say so and fail.
      if (!(await isDirectory(project))) {
        io.err(`doctor: project folder not found: ${project}`);
        io.exitCode = 2;
        return;
      }
      let selection: DoctorSelection;
      let options: ModelFactoryOptions;
      let skills: readonly string[] | undefined;
      try {
        const config = await loadConfig(project);
        skills = config.skills;
        selection = {
          ...resolveModelSelection({ flags, config, env: io.env }),
          author: resolveAuthorModel({ flags, config, env: io.env }),
        };
        const structuredOutput = structuredOutputSetting(flags, config);
        options = {
          ...modelOptionsFromConfig(config, io.env, (warning) => io.err(`doctor: warning: ${warning}`)),
          ...(structuredOutput !== undefined && { structuredOutput }),
          ...deps.modelOptions,
        };
      } catch (error) {
        io.err(`doctor: ${messageOf(error)}`);
        io.exitCode = 2;
        return;
      }

      let report: DoctorReport;
      try {
        // Rows are printed as they finish, so a slow endpoint does not hide the ones already checked.
        const idWidth = doctorIdWidth(selection);
        report = await checkModels({
          selection,
          env: io.env,
          options,
          ...(deps.now ? { now: deps.now } : {}),
          // The key itself, in any encoding, never reaches the printed row (providers echo it in errors).
          onRow: (row) => io.out(redactSecrets(formatDoctorRow(row, idWidth), secretsFromEnv(io.env))),
        });
      } catch (error) {
        if (!(error instanceof DoctorSelectionError)) throw error;
        io.err(`doctor: ${error.message}`);
        io.exitCode = 2;
        return;
      }
      // The skills' own rules, whatever the models say (they never change the exit code).
      const skillsReport = await doctorSkillsReport(project, skills);
      if (report.allOffline) {
        io.out(
          'models: offline for every role — no keys, no network, structural scoring only; nothing to check. ' +
            '`evals init` needs a model: pass --author-model provider:model or set a provider key.',
        );
        if (skillsReport !== '') io.out(`\n${skillsReport}`);
        io.exitCode = 0;
        return;
      }
      if (skillsReport !== '') io.out(`\n${skillsReport}`);
      io.exitCode = report.failed.length > 0 ? 1 : 0;
      if (report.failed.length > 0)
        io.err(`doctor: ${report.failed.length} of ${report.rows.length} roles failed`);
    });
}
