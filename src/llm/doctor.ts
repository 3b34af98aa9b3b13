/**
 * The model health check behind `skillclimb doctor` and the Action's first step: per role, the key is
 * present, the endpoint answers, one tiny structured call succeeds. Returns one row per role; printing
 * (formatDoctorRow) and what a failure means (exit 1, a failed job) are the caller's.
 */
import type { JSONSchema7 } from 'ai';
import { modelFamily, type ModelFamily } from '../core/families.js';
import { callJson, type RoleModel } from './call.js';
import { resolveEndpoint } from './endpoints.js';
import { ModelCallError, type Role, type SkillRole } from './errors.js';
import {
  buildRoleModel,
  callSettings,
  ROLES,
  withStructuredOutputMemo,
  type ModelFactoryOptions,
} from './factory.js';
import { describeStructuredOutput, type StructuredOutputState } from './structured-output.js';
import { parseModelId, type ModelId } from './model-id.js';
import { ModelOutputError } from '../core/model-answers.js';
import { redactMessage } from './redact-message.js';
import { SkillclimbError, messageOf } from '../core/errors.js';

/** The ids to check and where each came from (`ResolvedModelSelection` from src/config fits). */
export interface DoctorSelection {
  editorModel: string;
  renderModel: string;
  graderModel: string;
  /** Where each role's model id came from, `flag`, `config` or `default`: printed after the endpoint. */
  sources: Record<SkillRole, string>;
  /**
   * The model `evals init` writes eval files with, and where its id came from (src/config/author-selection.ts):
   * checked like the others when given (the CLI's doctor; the Action's run never writes evals).
   */
  author?: { id: string; source: string } | undefined;
}

export type DoctorStatus = 'ok' | 'failed' | 'offline';

export interface DoctorRow {
  role: Role;
  modelId: string;
  family: ModelFamily;
  source: string;
  status: DoctorStatus;
  /** Set when status is ok. */
  latencyMs?: number;
  /** The resolved base URL, when the key and URL resolved. */
  endpoint?: string;
  /** Where that base URL came from (an environment variable, an option, the config file, the default). */
  endpointSource?: string;
  /** Where the key came from: its variable (`ANTHROPIC_API_KEY`), `option`, or `none` (a keyless server). */
  keySource?: string;
  /** Set when status is failed: `key`, `endpoint unreachable`, `timeout`, `request failed`, `structured call failed`. */
  failure?: { stage: string; detail: string };
  /** OpenAI-compatible roles that were called: the structured-output mode the call settled on, and why. */
  structuredOutput?: StructuredOutputState;
}

export interface DoctorReport {
  rows: DoctorRow[];
  /** Every role (the author too, when given) is offline: nothing needed checking (and nothing was called). */
  allOffline: boolean;
  failed: DoctorRow[];
}

/** A selection the check cannot even start on (a bad id, render and grader disagreeing on offline). */
export class DoctorSelectionError extends SkillclimbError {
  readonly kind = 'config';
  override name = 'DoctorSelectionError';
}

/** Checks are quick: a short timeout and one retry, so a dead endpoint fails in seconds, not minutes. */
const DOCTOR_TIMEOUT_MS = 30_000;
const DOCTOR_ATTEMPTS = 2;

/** The attempts one health call gets under these options (a caller logging retries counts against it). */
export function doctorMaxAttempts(options: ModelFactoryOptions): number {
  return options.retry?.maxAttempts ?? DOCTOR_ATTEMPTS;
}

const HEALTH_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
  additionalProperties: false,
};

type ProbeResult = { ok: true; latencyMs: number } | { ok: false; stage: string; detail: string };

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
  return { stage: 'request failed', detail: messageOf(error) };
}

async function probe(rm: RoleModel, options: ModelFactoryOptions, now: () => number): Promise<ProbeResult> {
  const settings = callSettings({
    ...options,
    timeoutMs: Math.min(options.timeoutMs ?? DOCTOR_TIMEOUT_MS, DOCTOR_TIMEOUT_MS),
    retry: { ...options.retry, maxAttempts: doctorMaxAttempts(options) },
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
        detail: redactMessage(`expected {"ok": true}, got ${JSON.stringify(reply.value)}`, rm.secrets ?? []),
      };
    }
    return { ok: true, latencyMs: now() - started };
  } catch (error) {
    const failure = describeCheckFailure(error);
    return { ok: false, stage: failure.stage, detail: redactMessage(failure.detail, rm.secrets ?? []) };
  }
}

function roleIds(selection: DoctorSelection): Record<SkillRole, string> {
  return { editor: selection.editorModel, render: selection.renderModel, grader: selection.graderModel };
}

type CheckedRole = SkillRole | 'author';

/** The roles a selection asks to check, in order: the three skill roles, then the author when given. */
function checkedRoles(selection: DoctorSelection): CheckedRole[] {
  return selection.author ? [...ROLES, 'author'] : [...ROLES];
}

function checkedIds(selection: DoctorSelection): Record<CheckedRole, string> {
  return { ...roleIds(selection), author: selection.author?.id ?? '' };
}

function sourceOf(selection: DoctorSelection, role: CheckedRole): string {
  return role === 'author' ? (selection.author?.source ?? 'default') : selection.sources[role];
}

/**
 * Parses every id (a bad one throws DoctorSelectionError `render model: model id "llama3": …`) and
 * returns them per role, without any network.
 */
function parseRoleIds(
  ids: Record<CheckedRole, string>,
  roles: readonly CheckedRole[] = ROLES,
): Record<CheckedRole, ModelId> {
  const parsed = {} as Record<CheckedRole, ModelId>;
  for (const role of roles) {
    try {
      parsed[role] = parseModelId(ids[role]);
    } catch (error) {
      throw new DoctorSelectionError(`${role} model: ${messageOf(error)}`);
    }
  }
  return parsed;
}

/** The model column's width for formatDoctorRow: the longest id as given, plus two spaces. */
export function doctorIdWidth(selection: DoctorSelection): number {
  const ids = checkedIds(selection);
  return Math.max(...checkedRoles(selection).map((role) => ids[role].length)) + 2;
}

/** True when every role of the selection is `offline` (throws DoctorSelectionError on a bad id). */
export function selectionIsOffline(selection: DoctorSelection): boolean {
  const roles = checkedRoles(selection);
  const parsed = parseRoleIds(checkedIds(selection), roles);
  return roles.every((role) => parsed[role].provider === 'offline');
}

type ResolvedRole =
  { endpoint: string; endpointSource: string; keySource: string; rm: RoleModel } | { error: string };

/** The role's endpoint and callable model, or the key/URL error building it raised (no network). */
function resolveRole(
  role: Role,
  id: Exclude<ModelId, { provider: 'offline' }>,
  env: NodeJS.ProcessEnv,
  options: ModelFactoryOptions,
): ResolvedRole {
  try {
    const endpoint = resolveEndpoint(role, id, env, options);
    return {
      endpoint: endpoint.baseUrl,
      endpointSource: endpoint.source,
      keySource: endpoint.keySource,
      rm: buildRoleModel(role, id, env, options),
    };
  } catch (error) {
    return { error: redactMessage(messageOf(error)) };
  }
}

/**
 * A shared probe's error names the role that made the call (`editor model …`, `editor answer unusable: …`);
 * each row names its own role instead.
 */
function renameRole(detail: string, from: Role, to: Role): string {
  return from !== to && detail.startsWith(`${from} `) ? `${to} ${detail.slice(from.length + 1)}` : detail;
}

/**
 * The ids are valid, render and grader agree on being offline, and every real role has its key and
 * endpoint: what checkModels verifies before its first call, with no call at all (a dry run's check).
 * Rows that would fail carry the `key` stage; the others are `ok` with their endpoint but no latency (nothing
 * was called). Throws DoctorSelectionError like checkModels.
 */
export function checkModelKeys(input: {
  selection: DoctorSelection;
  env: NodeJS.ProcessEnv;
  options?: ModelFactoryOptions;
}): DoctorReport {
  const { selection, env } = input;
  const roles = checkedRoles(selection);
  const ids = checkedIds(selection);
  const parsed = parseRoleIds(ids, roles);
  assertOfflineAgreement(parsed, ids);
  const rows = roles.map((role): DoctorRow => {
    const id = parsed[role];
    const head = { role, modelId: id.id, family: modelFamily(id.id), source: sourceOf(selection, role) };
    if (id.provider === 'offline') return { ...head, status: 'offline' };
    const resolved = resolveRole(role, id, env, input.options ?? {});
    return 'error' in resolved
      ? { ...head, status: 'failed', failure: { stage: 'key', detail: resolved.error } }
      : {
          ...head,
          status: 'ok',
          endpoint: resolved.endpoint,
          endpointSource: resolved.endpointSource,
          keySource: resolved.keySource,
        };
  });
  return {
    rows,
    allOffline: roles.every((role) => parsed[role].provider === 'offline'),
    failed: rows.filter((r) => r.status === 'failed'),
  };
}

function assertOfflineAgreement(
  parsed: Record<CheckedRole, ModelId>,
  ids: Record<CheckedRole, string>,
): void {
  if (ROLES.every((role) => parsed[role].provider === 'offline')) return;
  if ((parsed.render.provider === 'offline') !== (parsed.grader.provider === 'offline')) {
    throw new DoctorSelectionError(
      `render model ${ids.render} and grader model ${ids.grader}: both must be offline or both real models`,
    );
  }
}

/**
 * Checks each role in order. Roles sharing a model and endpoint share one call. `onRow` sees each row as
 * soon as it is known (a log can stream). Throws DoctorSelectionError before any call when an id is bad
 * or render and grader disagree on being offline.
 */
export async function checkModels(input: {
  selection: DoctorSelection;
  env: NodeJS.ProcessEnv;
  options?: ModelFactoryOptions;
  now?: () => number;
  onRow?: (row: DoctorRow) => void;
}): Promise<DoctorReport> {
  const { selection, env } = input;
  // Roles on one server learn its structured-output mode once, like the run's roles do.
  const options = withStructuredOutputMemo(input.options ?? {});
  const now = input.now ?? Date.now;
  const roles = checkedRoles(selection);
  const ids = checkedIds(selection);
  const parsed = parseRoleIds(ids, roles);
  const base = (role: CheckedRole) => ({
    role,
    modelId: parsed[role].id,
    family: modelFamily(parsed[role].id),
    source: sourceOf(selection, role),
  });

  if (roles.every((role) => parsed[role].provider === 'offline')) {
    const rows = roles.map((role): DoctorRow => ({ ...base(role), status: 'offline' }));
    return { rows, allOffline: true, failed: [] };
  }
  assertOfflineAgreement(parsed, ids);

  const probes = new Map<string, { prober: Role; result: Promise<ProbeResult> }>();
  const rows: DoctorRow[] = [];
  for (const role of roles) {
    const id = parsed[role];
    let row: DoctorRow;
    if (id.provider === 'offline') {
      row = { ...base(role), status: 'offline' };
    } else {
      const resolved = resolveRole(role, id, env, options);
      if ('error' in resolved) {
        row = { ...base(role), status: 'failed', failure: { stage: 'key', detail: resolved.error } };
      } else {
        const { endpoint, endpointSource, keySource, rm } = resolved;
        const key = `${id.id} ${endpoint}`;
        if (!probes.has(key)) probes.set(key, { prober: role, result: probe(rm, options, now) });
        const shared = probes.get(key)!;
        const result = await shared.result;
        const negotiated = rm.structuredOutput;
        const mode = negotiated && {
          structuredOutput: negotiated.memo.state(negotiated.baseUrl, negotiated.setting),
        };
        const where = { endpoint, endpointSource, keySource };
        row = result.ok
          ? { ...base(role), status: 'ok', latencyMs: result.latencyMs, ...where, ...mode }
          : {
              ...base(role),
              status: 'failed',
              ...where,
              failure: { stage: result.stage, detail: renameRole(result.detail, shared.prober, role) },
              ...mode,
            };
      }
    }
    rows.push(row);
    input.onRow?.(row);
  }
  return { rows, allOffline: false, failed: rows.filter((r) => r.status === 'failed') };
}

/**
 * One row as `skillclimb doctor` prints it, saying where the endpoint and the model id came from:
 * `grader  openai:gpt-5  family=openai    ok          250 ms  https://api.openai.com/v1 (endpoint: default;
 * model: flag)`; an OpenAI-compatible role adds its mode: `… (endpoint: environment variable
 * OPENAI_BASE_URL; model: flag)  structured output: json_schema`.
 */
export function formatDoctorRow(row: DoctorRow, idWidth: number): string {
  return redactMessage(doctorRowText(row, idWidth));
}

function doctorRowText(row: DoctorRow, idWidth: number): string {
  const head = `${row.role.padEnd(8)}${row.modelId.padEnd(idWidth)}family=${row.family.padEnd(10)}`;
  if (row.status === 'offline' && row.role === 'author') {
    // Not a failure (a night needs no author), but evals init would stop: said here, with the way out.
    return `${head}--       offline: evals init cannot write eval files with it (pass --author-model provider:model or set "models": {"author": …}; model: ${row.source})`;
  }
  if (row.status === 'offline') return `${head}ok       offline (no model call; model: ${row.source})`;
  const mode = row.structuredOutput ? `  ${describeStructuredOutput(row.structuredOutput)}` : '';
  if (row.status === 'ok') {
    const from =
      (row.endpointSource ? `endpoint: ${row.endpointSource}; ` : '') +
      (row.keySource ? `key: ${row.keySource}; ` : '');
    return `${head}ok       ${String(row.latencyMs ?? 0).padStart(6)} ms  ${row.endpoint ?? ''} (${from}model: ${row.source})${mode}`;
  }
  const fellBack = row.structuredOutput?.refusals.length ? mode : '';
  // Where a failing endpoint was set is often the fix (a stale variable, a config file).
  const key = row.keySource ? `; key: ${row.keySource}` : '';
  const where =
    row.endpoint && row.endpointSource ? ` (endpoint ${row.endpoint}: ${row.endpointSource}${key})` : '';
  return `${head}FAILED   ${row.failure?.stage ?? 'request failed'}: ${row.failure?.detail ?? ''}${where}${fellBack}`;
}

/**
 * `grader model openai:gpt-5 (request failed: HTTP 401: …)` per failed row, joined with `; `: what a
 * failed job's message names. The detail's own "… model openai:gpt-5" prefix is not repeated.
 */
export function describeDoctorFailures(report: DoctorReport): string {
  const text = report.failed
    .map((r) => {
      const who = `${r.role} model ${r.modelId}`;
      const detail = r.failure?.detail ?? '';
      // A key error or a ModelCallError already starts with "<role> model <id>": not repeated.
      const trimmed = detail.startsWith(who) ? detail.slice(who.length).replace(/^:? /, '') : detail;
      return `${who} (${r.failure?.stage ?? 'failed'}: ${trimmed})`;
    })
    .join('; ');
  return redactMessage(text);
}
