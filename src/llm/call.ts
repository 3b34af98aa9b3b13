/**
 * One model call over the AI SDK: retries, a per-attempt timeout joined with the engine's AbortSignal,
 * Anthropic prompt caching on the system prompt, usage and cost, and errors worded for a nightly log.
 */
import {
  APICallError,
  generateText,
  jsonSchema,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  type JSONSchema7,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type SystemModelMessage,
} from 'ai';
import { extractJsonObject, stripThinkBlocks } from '../core/json-extract.js';
import { untilAborted } from '../core/abortable.js';
import { isOverload, type AdaptiveConcurrency } from './adaptive-concurrency.js';
import { loadProvider } from './providers/lazy-model.js';
import { ModelCallError, ProviderOutputError, type Role } from './errors.js';
import { redactMessage } from './redact-message.js';
import { matchesSchema } from './schema-match.js';
import type { ModelId } from './model-id.js';
import type { Usage } from '../core/usage.js';
import { usageOf, type Price, type TokenCounts } from './prices.js';
import { withRetries, type RetryHooks, type RetryPolicy } from './retry.js';
import {
  structuredOutputRefusal,
  type StructuredOutputMemo,
  type StructuredOutputMode,
  type StructuredOutputSetting,
} from './structured-output.js';
import { messageOf } from '../core/errors.js';
import { modelProvider } from '../core/providers.js';

/** One role's model, ready to call. */
export interface RoleModel {
  role: Role;
  id: Exclude<ModelId, { provider: 'offline' }>;
  /** The server the role calls, its base URL without credentials (core/providers.ts credentialFreeUrl). */
  endpoint?: string | undefined;
  model: LanguageModel;
  /**
   * `schema`: the provider enforces a JSON schema (Anthropic, OpenAI); `negotiated`: an OpenAI-compatible
   * server, asked per `structuredOutput` (json_schema, else json_object, else the prompt plus extraction).
   */
  jsonMode: 'schema' | 'negotiated';
  /** Set when jsonMode is `negotiated`. */
  structuredOutput?: NegotiatedOutput | undefined;
  price: Price | undefined;
  /** Mark the system prompt and the user message's stable prefix `cache_control: ephemeral` (Anthropic). */
  cacheSystemPrompt: boolean;
  maxOutputTokens: number;
  /** The role's key(s): redacted from every error message and retry warning this call produces. */
  secrets?: readonly string[] | undefined;
  /** Bounds the attempts in flight to this role's endpoint, halving on 429/overload (shared by roles). */
  gate?: AdaptiveConcurrency | undefined;
}

/** Which `response_format` an OpenAI-compatible role sends, shared with every role on the same base URL. */
export interface NegotiatedOutput {
  baseUrl: string;
  setting: StructuredOutputSetting;
  memo: StructuredOutputMemo;
}

export interface CallSettings {
  /** Per attempt: a hung request is cut after this long. */
  timeoutMs: number;
  retry: RetryPolicy;
  hooks: RetryHooks;
}

export interface CallPrompt {
  /** Cacheable prefix (the SKILL.md for renders, the fixed instructions for the editor and the grader). */
  system?: string | undefined;
  /**
   * The start of the user message that repeats across calls (the SKILL.md for the editor, the scenario for
   * the grader): a second cache breakpoint where the provider takes one, else simply sent before `user`.
   */
  prefix?: string | undefined;
  user: string;
}

export interface TextReply {
  text: string;
  usage: Usage;
}

export interface JsonReply {
  value: Record<string, unknown>;
  /** The model's text as received (for error reports). */
  raw: string;
  usage: Usage;
}

/** Usage in the port's terms: `inputTokens` are the uncached ones. */
export function tokensOf(usage: LanguageModelUsage | undefined): TokenCounts {
  const total = usage?.inputTokens ?? 0;
  const cacheReadTokens = usage?.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheWriteTokens = usage?.inputTokenDetails?.cacheWriteTokens ?? 0;
  const inputTokens =
    usage?.inputTokenDetails?.noCacheTokens ?? Math.max(0, total - cacheReadTokens - cacheWriteTokens);
  return { inputTokens, outputTokens: usage?.outputTokens ?? 0, cacheReadTokens, cacheWriteTokens };
}

/** Anthropic's cache breakpoint (`cache_control: {type: "ephemeral"}`); other providers ignore it. */
const EPHEMERAL = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

function systemMessage(rm: RoleModel, system: string | undefined): string | SystemModelMessage | undefined {
  if (system === undefined) return undefined;
  if (!rm.cacheSystemPrompt) return system;
  return {
    role: 'system',
    content: system,
    providerOptions: EPHEMERAL,
  };
}

/** The variables to check after a refused key: the key's, and the base URL's when it has no default. */
function keyHint(rm: RoleModel): string {
  const { key, baseUrl } = modelProvider(rm.id.provider);
  return baseUrl.default === undefined
    ? `check ${key.variable} and ${baseUrl.variable}`
    : `check ${key.variable}`;
}

function requestId(headers: Record<string, string> | undefined): string {
  const id = headers?.['request-id'] ?? headers?.['x-request-id'];
  return id ? `, request id ${id}` : '';
}

/** `text` with the role's key, credential-shaped strings and URL credentials removed. */
function clean(rm: RoleModel, text: string): string {
  return redactMessage(text, rm.secrets ?? []);
}

/**
 * Turns what the SDK threw (after our retries) into ModelCallError / ProviderOutputError. Every message is
 * redacted here, at the source: a provider may echo the key in its error body or the request URL.
 */
export function describeFailure(rm: RoleModel, error: unknown, attempts: number): Error {
  if (error instanceof ModelCallError || error instanceof ProviderOutputError) return error;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const message = clean(rm, error.message);
    if (status !== undefined && status >= 200 && status < 300) {
      return new ProviderOutputError(
        rm.role,
        `the server answered with a malformed body (${message})`,
        error.responseBody === undefined ? undefined : clean(rm, error.responseBody),
        undefined,
      );
    }
    if (status === undefined) {
      const tries = attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
      return new ModelCallError(
        rm.role,
        rm.id.id,
        'network',
        `cannot reach ${clean(rm, error.url)}: ${message}${tries}`,
        undefined,
        { cause: error },
      );
    }
    let advice: string;
    if (status === 401 || status === 403) advice = `not retried; ${keyHint(rm)}`;
    else if (status === 400 || status === 404 || status === 422)
      advice = 'not retried; check the model name and request';
    else if (attempts > 1) advice = `gave up after ${attempts} attempts`;
    else advice = 'not retried';
    const retryAfter = error.responseHeaders?.['retry-after'];
    const asked =
      retryAfter && attempts === 1 && status === 429
        ? `; the server asks to wait ${clean(rm, retryAfter)} s`
        : '';
    return new ModelCallError(
      rm.role,
      rm.id.id,
      'http',
      `HTTP ${status}: ${message} (${advice}${asked}${clean(rm, requestId(error.responseHeaders))})`,
      status,
      { cause: error },
    );
  }
  const message = clean(rm, messageOf(error));
  return new ModelCallError(rm.role, rm.id.id, 'network', message, undefined, { cause: error });
}

/**
 * The error a retry hook sees, redacted like describeFailure's messages (the hook's warning is logged and
 * may be persisted). An APICallError stays one, so the hook can still read its status.
 */
export function redactedRetryError(rm: RoleModel, error: unknown): unknown {
  if (APICallError.isInstance(error)) {
    return new APICallError({
      message: clean(rm, error.message),
      url: clean(rm, error.url),
      requestBodyValues: undefined,
      statusCode: error.statusCode,
      responseHeaders: error.responseHeaders,
      responseBody: error.responseBody === undefined ? undefined : clean(rm, error.responseBody),
      isRetryable: error.isRetryable,
    });
  }
  if (error instanceof Error) {
    const copy = new Error(clean(rm, error.message));
    copy.name = error.name;
    return copy;
  }
  return clean(rm, String(error));
}

function redactingHooks(rm: RoleModel, hooks: RetryHooks): RetryHooks {
  const onRetry = hooks.onRetry;
  if (onRetry === undefined) return hooks;
  return { ...hooks, onRetry: (info) => onRetry({ ...info, error: redactedRetryError(rm, info.error) }) };
}

/**
 * Runs one generateText per attempt. The SDK's own retries are off (`maxRetries: 0`) so that ours — with
 * jitter and retry-after — are the only ones. Abort by the engine rejects with the engine's reason.
 */
async function attempt<T>(
  rm: RoleModel,
  signal: AbortSignal,
  settings: CallSettings,
  run: (abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  let attempts = 0;
  try {
    return await withRetries(
      async () => {
        attempts++;
        await untilAborted(loadProvider(rm.model), signal);
        // The slot is held for the request only, not for a retry's wait.
        const slot = await rm.gate?.acquire(signal);
        const timeout = AbortSignal.timeout(settings.timeoutMs);
        try {
          const result = await run(AbortSignal.any([signal, timeout]));
          slot?.release('ok');
          return result;
        } catch (error) {
          slot?.release(isOverload(error) ? 'overload' : 'other');
          if (!signal.aborted && timeout.aborted) {
            throw new ModelCallError(
              rm.role,
              rm.id.id,
              'timeout',
              `no answer within ${Math.round(settings.timeoutMs / 1000)} s (timeout ${settings.timeoutMs} ms)`,
            );
          }
          throw error;
        }
      },
      settings.retry,
      signal,
      redactingHooks(rm, settings.hooks),
    );
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw describeFailure(rm, error, attempts);
  }
}

/**
 * The user turn: one text, or — where the provider caches at marked breakpoints — the stable prefix and
 * the per-call rest as two parts, the first marked, so the next call with the same prefix reads it from
 * the cache (docs/how-it-works.md § Models and providers).
 */
function userTurn(rm: RoleModel, prompt: CallPrompt): { prompt: string } | { messages: ModelMessage[] } {
  if (!prompt.prefix) return { prompt: prompt.user };
  if (!rm.cacheSystemPrompt) return { prompt: `${prompt.prefix}${prompt.user}` };
  return {
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: prompt.prefix, providerOptions: EPHEMERAL },
          { type: 'text', text: prompt.user },
        ],
      },
    ],
  };
}

/** What every call sends: the role's model and limits, the (cacheable) system message, and no SDK retries (ours run). */
function requestOf(rm: RoleModel, prompt: CallPrompt, abortSignal: AbortSignal) {
  return {
    model: rm.model,
    system: systemMessage(rm, prompt.system),
    ...userTurn(rm, prompt),
    maxOutputTokens: rm.maxOutputTokens,
    maxRetries: 0,
    abortSignal,
  };
}

/** A plain-text answer (renders). `<think>` blocks of raw reasoning models are dropped. */
export async function callText(
  rm: RoleModel,
  prompt: CallPrompt,
  signal: AbortSignal,
  settings: CallSettings,
): Promise<TextReply> {
  return attempt(rm, signal, settings, async (abortSignal) => {
    const result = await generateText(requestOf(rm, prompt, abortSignal));
    return { text: stripThinkBlocks(result.text).trim(), usage: usageOf(tokensOf(result.usage), rm.price) };
  });
}

function unusable(rm: RoleModel, text: string, usage: Usage, detail: string): ProviderOutputError {
  const redacted = clean(rm, text);
  const shown = redacted.length > 200 ? `${redacted.slice(0, 200)}…` : redacted;
  return new ProviderOutputError(
    rm.role,
    `${detail}; the answer was: ${JSON.stringify(shown)}`,
    redacted,
    usage,
  );
}

type JsonAttempt = { text: string; value: unknown; usage: Usage };

/**
 * One request for a JSON answer in `mode`: `json_schema` and the native providers' structured output go
 * through `Output.object` (the SDK sends the schema); `json_object` through `Output.json` (the
 * compatible provider sends `response_format: {type: "json_object"}`); `text` sends none. An answer the
 * SDK cannot parse or validate comes back as text, for extraction.
 */
async function requestJson(
  rm: RoleModel,
  mode: StructuredOutputMode,
  prompt: CallPrompt & { schema: JSONSchema7; name: string },
  abortSignal: AbortSignal,
): Promise<JsonAttempt> {
  const common = requestOf(rm, prompt, abortSignal);
  if (mode === 'text') {
    const result = await generateText(common);
    return { text: result.text, value: undefined, usage: usageOf(tokensOf(result.usage), rm.price) };
  }
  const output =
    mode === 'json_schema'
      ? Output.object({ schema: jsonSchema<Record<string, unknown>>(prompt.schema), name: prompt.name })
      : Output.json({ name: prompt.name });
  try {
    const result = await generateText({ ...common, output });
    const usage = usageOf(tokensOf(result.usage), rm.price);
    try {
      return { text: result.text, value: result.output, usage };
    } catch (error) {
      if (NoOutputGeneratedError.isInstance(error)) return { text: result.text, value: undefined, usage };
      throw error;
    }
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error)) {
      return { text: error.text ?? '', value: undefined, usage: usageOf(tokensOf(error.usage), rm.price) };
    }
    throw error;
  }
}

/**
 * An OpenAI-compatible role's request, in the mode its server is known to accept. A refusal of that mode
 * (a 400 naming response_format) under `auto` is not an attempt that failed: the memo steps down one
 * mode and the request goes out again, so each server costs at most two refused round-trips per run.
 */
async function negotiatedJson(
  rm: RoleModel,
  negotiated: NegotiatedOutput,
  prompt: CallPrompt & { schema: JSONSchema7; name: string },
  signal: AbortSignal,
  settings: CallSettings,
): Promise<JsonAttempt> {
  const { baseUrl, setting, memo } = negotiated;
  for (;;) {
    const mode = memo.state(baseUrl, setting).mode;
    let refusal: string | undefined;
    try {
      const reply = await attempt(rm, signal, settings, async (abortSignal) => {
        try {
          return await requestJson(rm, mode, prompt, abortSignal);
        } catch (error) {
          const reason = memo.canFallBack(setting, mode) ? structuredOutputRefusal(error) : undefined;
          if (reason === undefined) throw error;
          return { refused: clean(rm, reason) };
        }
      });
      if (!('refused' in reply)) return reply;
      refusal = reply.refused;
    } catch (error) {
      throw forcedModeHint(error, setting, mode);
    }
    memo.refused(baseUrl, setting, mode, refusal);
  }
}

/** A forced mode the server refuses: the error says which setting to change. */
function forcedModeHint(
  error: unknown,
  setting: StructuredOutputSetting,
  mode: StructuredOutputMode,
): unknown {
  if (setting === 'auto' || !(error instanceof ModelCallError)) return error;
  if (structuredOutputRefusal(error.cause) === undefined) return error;
  return new ModelCallError(
    error.role,
    error.modelId,
    error.failure,
    `${error.message.slice(`${error.role} model ${error.modelId}: `.length)}; the server refused ` +
      `structured output "${mode}" (forced by --structured-output / openaiCompatible.structuredOutput; ` +
      '"auto" falls back to what the server accepts)',
    error.status,
    { cause: error.cause },
  );
}

/**
 * A JSON-object answer. `schema` mode asks the provider for JSON-schema output; `negotiated` mode (an
 * OpenAI-compatible server) asks for what the server accepts (see negotiatedJson). Should the model still
 * answer off-schema, or in plain text, the last JSON object matching the schema is extracted from its text
 * (else the first object). Full schema validation is the caller's.
 */
export async function callJson(
  rm: RoleModel,
  prompt: CallPrompt & { schema: JSONSchema7; name: string },
  signal: AbortSignal,
  settings: CallSettings,
): Promise<JsonReply> {
  const negotiated = rm.jsonMode === 'negotiated' ? rm.structuredOutput : undefined;
  const reply = negotiated
    ? await negotiatedJson(rm, negotiated, prompt, signal, settings)
    : await attempt(rm, signal, settings, (abortSignal) =>
        requestJson(rm, 'json_schema', prompt, abortSignal),
      );
  // Several objects in a text answer (e.g. a quoted render echoed before the verdicts): the last one of the
  // requested shape is the answer — for the grader, the one whose `verdicts` keys are exactly the asked ids.
  const parsed = isPlainObject(reply.value) ? reply.value : undefined;
  const value =
    parsed ?? extractJsonObject(reply.text, (candidate) => matchesSchema(candidate, prompt.schema));
  if (value === undefined || typeof value !== 'object' || Array.isArray(value)) {
    throw unusable(rm, reply.text, reply.usage, 'no JSON object in the answer');
  }
  return { value, raw: reply.text, usage: reply.usage };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
