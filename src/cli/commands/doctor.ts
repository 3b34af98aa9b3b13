/**
 * `skillclimb doctor`: checks each configured model role before a night's run — the key is present, the
 * endpoint answers, one tiny structured call succeeds — and prints role, model, family and latency.
 * Exit 0 when every role passes (or everything is offline), 1 when one fails, 2 on a bad config or flag.
 */
import path from 'node:path';
import { Command } from 'commander';
import type { JSONSchema7 } from 'ai';
import {
  loadConfig,
  modelOptionsFromConfig,
  resolveModelSelection,
  type ModelSource,
} from '../../config/config.js';
import { modelFamily } from '../../core/families.js';
import { callJson, type RoleModel } from '../../llm/call.js';
import { resolveEndpoint } from '../../llm/endpoints.js';
import { ModelCallError, type Role } from '../../llm/errors.js';
import { buildRoleModel, callSettings, ROLES, type ModelFactoryOptions } from '../../llm/factory.js';
import { parseModelId, type ModelId } from '../../llm/model-id.js';
import { ModelOutputError } from '../../llm/port.js';
import type { CliIo } from '../io.js';

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
}

/** Checks are quick: a short timeout and one retry, so a dead endpoint fails in seconds, not minutes. */
const DOCTOR_TIMEOUT_MS = 30_000;
const DOCTOR_ATTEMPTS = 2;

const HEALTH_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
  additionalProperties: false,
};

type CheckResult = { ok: true; latencyMs: number } | { ok: false; stage: string; detail: string };

function describeCheckFailure(error: unknown): { stage: string; detail: string } {
  if (error instanceof ModelCallError) {
    const stage =
      error.failure === 'network'
        ? 'endpoint unreachable'
        : error.failure === 'timeout'
          ? 'timeout'
          : 'request failed';
    return { stage, detail: error.message };
  }
  if (error instanceof ModelOutputError) return { stage: 'structured call failed', detail: error.message };
  return { stage: 'request failed', detail: error instanceof Error ? error.message : String(error) };
}

async function probe(rm: RoleModel, options: ModelFactoryOptions, now: () => number): Promise<CheckResult> {
  const settings = callSettings({
    ...options,
    timeoutMs: Math.min(options.timeoutMs ?? DOCTOR_TIMEOUT_MS, DOCTOR_TIMEOUT_MS),
    retry: { maxAttempts: DOCTOR_ATTEMPTS, ...options.retry },
  });
  const started = now();
  try {
    const reply = await callJson(
      { ...rm, maxOutputTokens: Math.min(rm.maxOutputTokens, 1024) },
      {
        system: 'You are a health check. Answer only with JSON.',
        user: 'Reply with exactly this JSON object and nothing else: {"ok": true}',
        schema: HEALTH_SCHEMA,
        name: 'health',
      },
      new AbortController().signal,
      settings,
    );
    if (reply.value.ok !== true) {
      return {
        ok: false,
        stage: 'structured call failed',
        detail: `expected {"ok": true}, got ${JSON.stringify(reply.value)}`,
      };
    }
    return { ok: true, latencyMs: now() - started };
  } catch (error) {
    return { ok: false, ...describeCheckFailure(error) };
  }
}

function pad(text: string, width: number): string {
  return text.padEnd(width);
}

export function doctorCommand(io: CliIo, deps: DoctorDeps = {}): Command {
  return new Command('doctor')
    .description('Check the configured models: key present, endpoint reachable, one tiny structured call')
    .option('--project <path>', 'project whose skillclimb.config.json to read (default: the current folder)')
    .option('--model <id>', 'model for all three roles (provider:model or offline)')
    .option('--editor-model <id>', 'editor model')
    .option('--render-model <id>', 'render model')
    .option('--grader-model <id>', 'grader model')
    .action(async (flags: DoctorFlags) => {
      const now = deps.now ?? Date.now;
      const project = path.resolve(io.cwd, flags.project ?? '.');
      let selection: ReturnType<typeof resolveModelSelection>;
      let options: ModelFactoryOptions;
      try {
        const config = await loadConfig(project);
        selection = resolveModelSelection({ flags, config, env: io.env });
        options = { ...modelOptionsFromConfig(config, io.env), ...deps.modelOptions };
      } catch (error) {
        io.err(`doctor: ${(error as Error).message}`);
        io.exitCode = 2;
        return;
      }
      const ids: Record<Role, string> = {
        editor: selection.editorModel,
        render: selection.renderModel,
        grader: selection.graderModel,
      };
      const parsed = new Map<Role, ModelId>();
      for (const role of ROLES) {
        try {
          parsed.set(role, parseModelId(ids[role]));
        } catch (error) {
          io.err(`doctor: ${role} model: ${(error as Error).message}`);
          io.exitCode = 2;
          return;
        }
      }
      if (ROLES.every((role) => parsed.get(role)?.provider === 'offline')) {
        io.out(
          'models: offline for every role — no keys, no network, structural scoring only; nothing to check.',
        );
        io.exitCode = 0;
        return;
      }

      if ((parsed.get('render')?.provider === 'offline') !== (parsed.get('grader')?.provider === 'offline')) {
        io.err(
          `doctor: render model ${ids.render} and grader model ${ids.grader}: both must be offline or both real models`,
        );
        io.exitCode = 2;
        return;
      }

      const checks = new Map<string, Promise<CheckResult>>();
      const width = Math.max(...ROLES.map((r) => ids[r].length)) + 2;
      let failed = 0;
      for (const role of ROLES) {
        const id = parsed.get(role)!;
        const source: ModelSource = selection.sources[role];
        const head = `${pad(role, 8)}${pad(id.id, width)}family=${pad(modelFamily(id.id), 10)}`;
        if (id.provider === 'offline') {
          io.out(`${head}ok       offline (no model call; ${source})`);
          continue;
        }
        let endpoint: string;
        let rm: RoleModel;
        try {
          endpoint = resolveEndpoint(role, id, io.env, options).baseUrl;
          rm = buildRoleModel(role, id, io.env, options);
        } catch (error) {
          failed++;
          io.out(`${head}FAILED   key: ${(error as Error).message}`);
          continue;
        }
        const key = `${id.id} ${endpoint}`;
        if (!checks.has(key)) checks.set(key, probe(rm, options, now));
        const result = await checks.get(key)!;
        if (result.ok) {
          io.out(`${head}ok       ${String(result.latencyMs).padStart(6)} ms  ${endpoint} (${source})`);
        } else {
          failed++;
          io.out(`${head}FAILED   ${result.stage}: ${result.detail}`);
        }
      }
      io.exitCode = failed > 0 ? 1 : 0;
      if (failed > 0) io.err(`doctor: ${failed} of ${ROLES.length} roles failed`);
    });
}
