/**
 * A scripted test double of the model port: each role is a handler the test writes, so engine tests can
 * steer keeps, reverts, garbage and hangs while the real engine code runs. Every call is recorded.
 */
import { abortableSleep, untilAborted } from '../core/abortable.js';
import {
  EditProposalSchema,
  GraderAnswerSchema,
  ModelOutputError,
  type EditProposal,
  type GraderAnswer,
} from '../core/model-answers.js';
import { ZERO_USAGE, type Usage } from '../core/usage.js';
import type { EditorInput, GraderInput, ModelReply, RenderInput, SkillModels } from '../ports/models.js';

type Handler<I, O> = (input: I, callIndex: number) => O | Promise<O>;

export interface ScriptedModelsOptions {
  label?: string;
  structuralOnly?: boolean;
  renderModelId?: string;
  /** Returns the raw proposal; it is validated like a real provider's answer (garbage → ModelOutputError). */
  propose?: Handler<EditorInput, unknown>;
  render?: Handler<RenderInput, string>;
  /** Returns the raw grader answer; validated like a real provider's answer. */
  grade?: Handler<GraderInput, unknown>;
  /** Simulated latency per call (honours the abort signal). */
  delayMs?: number;
  /** Usage reported per call. */
  usagePerCall?: Partial<Usage>;
}

export interface ScriptedModels extends SkillModels {
  readonly calls: { propose: EditorInput[]; render: RenderInput[]; grade: GraderInput[] };
}

/** Races a handler against the signal so a hung handler still rejects on abort. */
async function runHandler<O>(work: () => O | Promise<O>, signal: AbortSignal): Promise<O> {
  if (signal.aborted) throw signal.reason;
  return await untilAborted(Promise.resolve().then(work), signal);
}

export function createScriptedModels(options: ScriptedModelsOptions = {}): ScriptedModels {
  const calls: ScriptedModels['calls'] = { propose: [], render: [], grade: [] };
  const usage: Usage = { ...ZERO_USAGE, calls: 1, ...options.usagePerCall };

  async function call<I, O>(
    role: 'propose' | 'render' | 'grade',
    input: I,
    signal: AbortSignal,
    handler: Handler<I, O> | undefined,
  ): Promise<O> {
    const index = calls[role].length;
    (calls[role] as I[]).push(input);
    if (!handler) throw new Error(`scripted models: no ${role} handler`);
    const delayMs = options.delayMs ?? 0;
    if (delayMs > 0) await abortableSleep(delayMs, signal);
    return runHandler(() => handler(input, index), signal);
  }

  return {
    label: options.label ?? 'scripted',
    structuralOnly: options.structuralOnly ?? false,
    renderModelId: options.renderModelId ?? 'scripted:render',
    calls,
    async propose(input, signal): Promise<ModelReply<EditProposal>> {
      const raw = await call('propose', input, signal, options.propose);
      const parsed = EditProposalSchema.safeParse(raw);
      if (!parsed.success) throw new ModelOutputError('editor', parsed.error.issues[0]?.message ?? 'invalid');
      return { value: parsed.data, usage };
    },
    async render(input, signal): Promise<ModelReply<string>> {
      return { value: await call('render', input, signal, options.render), usage };
    },
    async grade(input, signal): Promise<ModelReply<GraderAnswer>> {
      const raw = await call('grade', input, signal, options.grade);
      const parsed = GraderAnswerSchema.safeParse(raw);
      if (!parsed.success) throw new ModelOutputError('grader', parsed.error.issues[0]?.message ?? 'invalid');
      return { value: parsed.data, usage };
    },
  };
}
