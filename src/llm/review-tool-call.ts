/**
 * A model call that may use read-only tools before it answers (the nightmare verifier; docs/how-it-works.md
 * § Debate and nightmare), through the AI SDK's tool calling: `tool()` definitions, `stopWhen:
 * stepCountIs(n)`, and a last step with tools switched off so the model must answer in text. Retries,
 * timeouts and error wording are the ones every other call uses.
 */
import { generateText, stepCountIs, tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { Usage } from '../core/usage.js';
import type { ReadOnlyTools } from '../ports/review.js';
import { describeFailure, redactedRetryError, tokensOf, type CallSettings, type RoleModel } from './call.js';
import { usageOf } from './prices.js';
import { withRetries, type RetryHooks } from './retry.js';

export interface ToolCallLog {
  step: number;
  tool: string;
  input: unknown;
  /** Characters of the result the model was sent. */
  resultChars: number;
}

export interface ToolCallReply {
  text: string;
  usage: Usage;
  steps: number;
  calls: ToolCallLog[];
}

function readOnlyToolSet(tools: ReadOnlyTools): ToolSet {
  return {
    read_file: tool({
      description:
        'Read one file of the repository at the reviewed head. `path` is repository-relative (e.g. src/a.ts).',
      inputSchema: z.object({ path: z.string().describe('repository-relative file path') }),
      execute: async ({ path }) => tools.readFile(path),
    }),
    list_folder: tool({
      description:
        'List the entries of a folder at the reviewed head ("" for the repository root). Folders end with /.',
      inputSchema: z.object({
        path: z.string().describe('repository-relative folder path, "" for the root'),
      }),
      execute: async ({ path }) => tools.listFolder(path),
    }),
    search_text: tool({
      description: 'Find lines containing a fixed text at the reviewed head, optionally under one folder.',
      inputSchema: z.object({
        query: z.string().describe('the text to find (not a regular expression)'),
        folder: z.string().optional().describe('repository-relative folder to search under'),
      }),
      execute: async ({ query, folder }) => tools.searchText(query, folder),
    }),
  };
}

/** Tool calls and their results, step by step, for the trace. */
function callLog(
  steps: ReadonlyArray<{
    toolCalls: ReadonlyArray<{ toolName: string; input: unknown; toolCallId: string }>;
    toolResults: ReadonlyArray<{ toolCallId: string; output: unknown }>;
  }>,
): ToolCallLog[] {
  const log: ToolCallLog[] = [];
  steps.forEach((step, index) => {
    for (const call of step.toolCalls) {
      const result = step.toolResults.find((r) => r.toolCallId === call.toolCallId);
      const output =
        result === undefined
          ? ''
          : typeof result.output === 'string'
            ? result.output
            : JSON.stringify(result.output);
      log.push({ step: index + 1, tool: call.toolName, input: call.input, resultChars: output.length });
    }
  });
  return log;
}

/**
 * Runs the tool loop. At most `maxSteps` model requests; the last one has tools switched off. A failed
 * request is retried (as every call is) from the start, with the tools' budgets already partly spent.
 */
export async function callWithTools(
  rm: RoleModel,
  prompt: { system: string; user: string },
  tools: ReadOnlyTools,
  maxSteps: number,
  signal: AbortSignal,
  settings: CallSettings,
): Promise<ToolCallReply> {
  const toolSet = readOnlyToolSet(tools);
  const hooks: RetryHooks = settings.hooks.onRetry
    ? {
        ...settings.hooks,
        onRetry: (info) => settings.hooks.onRetry?.({ ...info, error: redactedRetryError(rm, info.error) }),
      }
    : settings.hooks;
  let attempts = 0;
  try {
    return await withRetries(
      async () => {
        attempts++;
        const result = await generateText({
          model: rm.model,
          system: prompt.system,
          prompt: prompt.user,
          tools: toolSet,
          stopWhen: stepCountIs(maxSteps),
          prepareStep: ({ stepNumber }) =>
            stepNumber >= maxSteps - 1 ? { toolChoice: 'none' as const } : undefined,
          maxOutputTokens: rm.maxOutputTokens,
          maxRetries: 0,
          timeout: { stepMs: settings.timeoutMs },
          abortSignal: signal,
        });
        const usage: Usage = {
          ...usageOf(tokensOf(result.totalUsage), rm.price),
          calls: result.steps.length,
        };
        return { text: result.text, usage, steps: result.steps.length, calls: callLog(result.steps) };
      },
      settings.retry,
      signal,
      hooks,
    );
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw describeFailure(rm, error, attempts);
  }
}
