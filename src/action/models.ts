/**
 * The night's models: the project's config and role selection, and the check that every real model
 * answers before any GitHub call, push or hour of work (docs/how-it-works.md § Models and providers).
 */
import path from 'node:path';
import { loadProjectModelConfig, retryWarnings, type ProjectModelConfig } from '../config/project-models.js';
import {
  checkModelKeys,
  checkModels,
  describeDoctorFailures,
  doctorIdWidth,
  doctorMaxAttempts,
  formatDoctorRow,
  selectionIsOffline,
  type DoctorReport,
} from '../llm/doctor.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';

/** The project's config and the role selection; the model inputs act as the CLI's flags over the config. */
export function loadNightModelConfig(
  inputs: ActionInputs,
  ctx: ActionContext,
  env: NodeJS.ProcessEnv,
  io: Pick<ActionIo, 'log'>,
): Promise<ProjectModelConfig> {
  return loadProjectModelConfig({
    project: path.resolve(ctx.workspace, inputs.project),
    flags: {
      model: inputs.model,
      editorModel: inputs.editorModel,
      renderModel: inputs.renderModel,
      graderModel: inputs.graderModel,
    },
    env,
    log: io.log,
  });
}

function modelCheckFailed(report: DoctorReport): Error {
  return new Error(
    `model check failed for ${describeDoctorFailures(report)}; nothing was run (check the key, endpoint and model id)`,
  );
}

/** The part of the night's model check that needs no call (ids, keys, endpoints), with its message. */
export function checkModelKeysFirst(project: ProjectModelConfig, env: NodeJS.ProcessEnv): void {
  const report = checkModelKeys({ selection: project.selection, env, options: project.modelOptions });
  if (report.failed.length > 0) throw modelCheckFailed(report);
}

/**
 * `skillclimb doctor` before the night: each real model answers one tiny structured call, or the job
 * fails here — naming the role and model — before any GitHub call, push or hour of work.
 */
export async function checkModelsFirst(
  project: ProjectModelConfig,
  env: NodeJS.ProcessEnv,
  io: ActionIo,
): Promise<void> {
  if (selectionIsOffline(project.selection)) return;
  const idWidth = doctorIdWidth(project.selection);
  io.startGroup('skillclimb doctor: model checks');
  let report: DoctorReport;
  try {
    report = await checkModels({
      selection: project.selection,
      env,
      // The health call has its own, shorter retry policy: the warnings count against it.
      options: {
        ...project.modelOptions,
        retryHooks: {
          ...project.modelOptions.retryHooks,
          onRetry: retryWarnings(io.log, doctorMaxAttempts(project.modelOptions)),
        },
      },
      now: () => io.now().getTime(),
      onRow: (row) => io.log.info(formatDoctorRow(row, idWidth)),
    });
  } finally {
    io.endGroup();
  }
  if (report.failed.length > 0) throw modelCheckFailed(report);
}
