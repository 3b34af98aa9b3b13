/**
 * Model API responses as the providers document them, for tests that serve them with nock or an
 * in-process server: one builder per wire format, so every test answers in the same shape.
 */

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** A Messages API response as https://docs.anthropic.com/en/api/messages documents it. */
export function anthropicMessage(content: unknown[], usage: AnthropicUsage, stopReason = 'end_turn') {
  return {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
  };
}

/** Anthropic's answer to the doctor's one tiny structured call. */
export function anthropicOk() {
  return anthropicMessage([{ type: 'text', text: '{"ok": true}' }], { input_tokens: 20, output_tokens: 5 });
}

/** An OpenAI error body, as the API sends it with a 4xx/5xx status. */
export function openaiError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

/** What OpenAI answers a wrong key with (HTTP 401). */
export const OPENAI_BAD_KEY = openaiError(
  'Incorrect API key provided',
  'invalid_request_error',
  'invalid_api_key',
);

/** A Chat Completions response as OpenAI documents it (and ollama, vLLM, llama.cpp, LiteLLM return it). */
export function chatCompletion(
  content: string,
  usage = { prompt_tokens: 50, completion_tokens: 20 },
  model = 'qwen3',
) {
  return {
    id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
    object: 'chat.completion',
    created: 1741569952,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}
