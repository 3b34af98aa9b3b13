/**
 * Structured output on OpenAI-compatible servers (docs/how-it-works.md § Models and providers). Small
 * local models — the main reason to run such a server — answer in the asked shape far more often when
 * the server constrains decoding by a JSON schema, so the schema is asked for first. Servers differ in
 * what they accept: one refusing `response_format: json_schema` gets `json_object`, then plain text with
 * the JSON read out of the answer. What a server accepted is remembered per base URL for the run, so the
 * refusal costs one round-trip, not one per call.
 */
import { APICallError } from 'ai';
import { z } from 'zod';

/** `auto` negotiates; the other three force one mode (a refusal is then an error). */
export const STRUCTURED_OUTPUT_SETTINGS = ['auto', 'json_schema', 'json_object', 'text'] as const;
export type StructuredOutputSetting = (typeof STRUCTURED_OUTPUT_SETTINGS)[number];
/** What one request sends: `response_format` json_schema, json_object, or none (ask in the prompt). */
export type StructuredOutputMode = Exclude<StructuredOutputSetting, 'auto'>;

export const StructuredOutputSettingSchema = z.enum(STRUCTURED_OUTPUT_SETTINGS, {
  error: `expected one of ${STRUCTURED_OUTPUT_SETTINGS.join(', ')}`,
});

/** The next weaker mode, or undefined after plain text (nothing left to drop). */
export function weakerMode(mode: StructuredOutputMode): StructuredOutputMode | undefined {
  if (mode === 'json_schema') return 'json_object';
  if (mode === 'json_object') return 'text';
  return undefined;
}

const STRENGTH: Record<StructuredOutputMode, number> = { json_schema: 2, json_object: 1, text: 0 };

export interface StructuredOutputRefusal {
  /** The mode the server refused. */
  mode: StructuredOutputMode;
  /** `HTTP 400: …`, redacted and shortened. */
  reason: string;
}

/** The mode a base URL's calls use now, and how it got there. */
export interface StructuredOutputState {
  setting: StructuredOutputSetting;
  mode: StructuredOutputMode;
  /** Refusals that led here, oldest first (empty when forced or never refused). */
  refusals: StructuredOutputRefusal[];
}

export interface StructuredOutputFallback {
  baseUrl: string;
  from: StructuredOutputMode;
  to: StructuredOutputMode;
  reason: string;
}

interface Learned {
  mode: StructuredOutputMode;
  refusals: StructuredOutputRefusal[];
}

/**
 * The run's memory of what each compatible server accepted, keyed by base URL. Modes only ever get
 * weaker: calls in flight when a server first refuses each fall back on their own, and the memo keeps
 * the weakest mode any of them reached.
 */
export class StructuredOutputMemo {
  private readonly learned = new Map<string, Learned>();

  constructor(private readonly onFallback?: (event: StructuredOutputFallback) => void) {}

  state(baseUrl: string, setting: StructuredOutputSetting): StructuredOutputState {
    if (setting !== 'auto') return { setting, mode: setting, refusals: [] };
    const learned = this.learned.get(baseUrl);
    return { setting, mode: learned?.mode ?? 'json_schema', refusals: [...(learned?.refusals ?? [])] };
  }

  /** Whether a refusal of `mode` may fall back (only under `auto`, and not from plain text). */
  canFallBack(setting: StructuredOutputSetting, mode: StructuredOutputMode): boolean {
    return setting === 'auto' && weakerMode(mode) !== undefined;
  }

  /**
   * Records that the server at `baseUrl` refused `mode`; the next call there uses a weaker one. Returns
   * false when nothing weaker may be tried (a forced setting, or plain text already).
   */
  refused(
    baseUrl: string,
    setting: StructuredOutputSetting,
    mode: StructuredOutputMode,
    reason: string,
  ): boolean {
    const next = weakerMode(mode);
    if (setting !== 'auto' || next === undefined) return false;
    const current = this.state(baseUrl, setting);
    // Another call already went below this mode: nothing new learned.
    if (STRENGTH[current.mode] < STRENGTH[mode]) return true;
    this.learned.set(baseUrl, { mode: next, refusals: [...current.refusals, { mode, reason }] });
    this.onFallback?.({ baseUrl, from: mode, to: next, reason });
    return true;
  }
}

/** What a server's refusal names: the parameter itself or one of its values. */
const NAMES_RESPONSE_FORMAT =
  /response_format|response[ _-]format|json[ _-]?schema|json_object|structured[ _-]?outputs?|guided[ _-]?(?:json|decoding)/i;
/** Generic "this parameter is not accepted" wordings (OpenAI, FastAPI/pydantic, Go and Rust servers). */
const UNSUPPORTED_PARAMETER =
  /unsupported[ _-]?param(?:eter)?|unknown[ _-]?(?:param(?:eter)?|field|argument)|unrecognized[ _-]?(?:param(?:eter)?|field|argument|request argument)|extra (?:fields|inputs) (?:are )?not permitted|additional properties/i;

/** Parameter names an error body points at (`"param": "max_tokens"`, `Unsupported parameter: 'max_tokens'`). */
function namedParameters(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/"param"\s*:\s*"([^"]+)"/g)) names.push(match[1]!);
  for (const match of text.matchAll(/parameter:?\s*['"`]([\w.[\]]+)['"`]/gi)) names.push(match[1]!);
  return names;
}

function shorten(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * `HTTP 400: <message>` when `error` is a server refusing the structured-output request: a 400 or 422
 * whose body names response_format / json_schema / json_object, or an unsupported-parameter error that
 * points at no other parameter. Anything else (a bad model name, a context overflow, a 5xx) is undefined:
 * falling back would not help, and the error is reported as it is.
 */
export function structuredOutputRefusal(error: unknown): string | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const status = error.statusCode;
  if (status !== 400 && status !== 422) return undefined;
  const text = `${error.message}\n${error.responseBody ?? ''}`;
  const names = namedParameters(text);
  const pointsElsewhere = names.length > 0 && !names.some((name) => NAMES_RESPONSE_FORMAT.test(name));
  const refuses =
    (NAMES_RESPONSE_FORMAT.test(text) && !pointsElsewhere) ||
    (UNSUPPORTED_PARAMETER.test(text) && !pointsElsewhere);
  return refuses ? `HTTP ${status}: ${shorten(error.message)}` : undefined;
}

/**
 * How `skillclimb doctor` names a role's mode: `structured output: json_schema`, `structured output: text
 * (forced)`, `structured output: json_object (fell back: json_schema refused: HTTP 400: …)`.
 */
export function describeStructuredOutput(state: StructuredOutputState): string {
  const head = `structured output: ${state.mode}`;
  if (state.setting !== 'auto') return `${head} (forced)`;
  if (state.refusals.length === 0) return head;
  const why = state.refusals.map((r) => `${r.mode} refused: ${r.reason}`).join('; ');
  return `${head} (fell back: ${why})`;
}
