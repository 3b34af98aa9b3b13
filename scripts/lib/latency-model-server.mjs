/**
 * A loopback model server with injected latency, for benchmarks that drive the REAL provider layer over
 * real HTTP. It speaks the three wire formats skillclimb's providers use:
 *   POST <base>/v1/messages           Anthropic Messages        (ANTHROPIC_BASE_URL=<base>)
 *   POST <base>/v1/chat/completions   OpenAI Chat Completions   (OPENAI_BASE_URL=<base>/v1, openai-compatible:)
 *   POST <base>/v1/responses          OpenAI Responses          (OPENAI_BASE_URL=<base>/v1, openai:)
 * A scripted responder decides each answer from the call; the server wraps it in the format of the path,
 * holds it for the latency, and records the call (when it arrived, when it was answered, how long its prompt
 * was, how much of it a provider's prompt cache would have served).
 *
 *   const server = await startLatencyModelServer({ latencyMs: 200, respond: (call) => 'text' });
 *   server.url; server.calls; server.reset(); await server.close();
 *
 * `call`: { index, api: 'anthropic' | 'chat' | 'responses', path, model, body, system, text, schema,
 *           promptChars, receivedAt, answeredAt, usage } — `system` and `text` are the request's system
 *           prompt and its other messages flattened to text (what a responder usually routes on); `schema` is
 *           the JSON schema the request asks the answer to follow (structured output: Anthropic's
 *           output_config.format or its `json` tool, OpenAI's text.format / response_format), else undefined;
 *           `usage` ({ input, cacheRead, cacheWrite, output }) is filled in when the call is answered.
 * A reply is a string (the answer text), or an object:
 *   { text, usage?: { input, output } }            a text answer with chosen token counts (no cache figures)
 *   { json: {...} }                                 a structured answer, sent the way the request asked for it
 *                                                   (a `json` tool call when the request forced that tool)
 *   { toolCalls: [{ name, input }], text? }         a tool-call turn (tool_use / tool_calls / function_call)
 *   { status, body, headers? }                      a raw HTTP error (e.g. 529 overloaded, 429 + retry-after)
 * `latencyMs` may be a number or a function of the call (per-call latency, e.g. slower reviewer).
 *
 * Prompt caching is simulated the way the providers report it, so a change to prompt order or cache
 * breakpoints shows up in the figures. Tokens are estimated as characters / 4.
 *   Anthropic: a prefix is cached only at a block marked `cache_control` (tools, then system, then messages),
 *     and only when it is at least `cacheMinTokens` long (1,024 for Sonnet); a later request whose prefix up
 *     to one of its own breakpoints matches a cached one reads it (`cache_read_input_tokens`); the tokens up
 *     to its last breakpoint that were not read are written (`cache_creation_input_tokens`); `input_tokens`
 *     is the rest.
 *   OpenAI (responses, chat): automatic, no markers: the longest previously seen prefix of at least
 *     `cacheMinTokens`, in steps of 128 tokens, is reported as `cached_tokens`.
 * Entries never expire within a server's life (a run is shorter than the providers' 5-minute TTL refresh).
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

function readBody(req) {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function flatten(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (typeof part.text === 'string') return part.text;
      if (part.type === 'tool_result') return flatten(part.content);
      if (typeof part.output === 'string') return part.output;
      return '';
    })
    .join('\n');
}

/** The system prompt and the rest of a request as plain text, whatever the wire format. */
function promptOf(api, body) {
  if (api === 'anthropic') {
    return {
      system: flatten(body.system),
      text: (body.messages ?? []).map((m) => flatten(m.content)).join('\n'),
    };
  }
  if (api === 'chat') {
    const messages = body.messages ?? [];
    const isSystem = (m) => m.role === 'system' || m.role === 'developer';
    return {
      system: messages
        .filter(isSystem)
        .map((m) => flatten(m.content))
        .join('\n'),
      text: messages
        .filter((m) => !isSystem(m))
        .map((m) => flatten(m.content))
        .join('\n'),
    };
  }
  const input = Array.isArray(body.input) ? body.input : [{ role: 'user', content: body.input }];
  const isSystem = (m) => m.role === 'system' || m.role === 'developer';
  return {
    system: [body.instructions ?? '', ...input.filter(isSystem).map((m) => flatten(m.content))]
      .join('\n')
      .trim(),
    text: input
      .filter((m) => !isSystem(m))
      .map((m) => flatten(m.content ?? m.output))
      .join('\n'),
  };
}

/** The JSON schema a structured-output request asks for, and whether it came as Anthropic's forced `json` tool. */
function schemaOf(api, body) {
  if (api === 'anthropic') {
    const format = body.output_config?.format ?? body.output_format;
    if (format?.schema) return { schema: format.schema, viaTool: false };
    const tool = (body.tools ?? []).find((t) => t.name === 'json' && t.input_schema);
    if (tool && body.tool_choice?.type === 'tool') return { schema: tool.input_schema, viaTool: true };
    return undefined;
  }
  if (api === 'chat') {
    const schema = body.response_format?.json_schema?.schema;
    return schema ? { schema, viaTool: false } : undefined;
  }
  const schema = body.text?.format?.schema;
  return schema ? { schema, viaTool: false } : undefined;
}

const CHARS_PER_TOKEN = 4;
const estimate = (text) => Math.max(1, Math.round(text.length / CHARS_PER_TOKEN));

/**
 * The request's prompt as an ordered list of segments, each with the text it contributes and whether it
 * carries an Anthropic `cache_control` breakpoint (the order a provider's cache reads: tools and schema,
 * system, then the messages).
 */
function segmentsOf(api, body) {
  const segments = [];
  const push = (text, breakpoint = false) => segments.push({ text: String(text ?? ''), breakpoint });
  const partText = (part) => {
    if (typeof part === 'string') return part;
    if (typeof part?.text === 'string') return part.text;
    if (part?.type === 'tool_result') return flatten(part.content);
    if (typeof part?.output === 'string') return part.output;
    return JSON.stringify(part ?? '');
  };
  if (api === 'anthropic') {
    for (const tool of body.tools ?? []) push(JSON.stringify(tool), Boolean(tool.cache_control));
    if (body.output_config) push(JSON.stringify(body.output_config));
    const system = typeof body.system === 'string' ? [{ text: body.system }] : (body.system ?? []);
    for (const block of system) push(block.text, Boolean(block.cache_control));
    for (const message of body.messages ?? []) {
      push(`\n${message.role}:`);
      const content = typeof message.content === 'string' ? [{ text: message.content }] : message.content;
      for (const part of content ?? []) push(partText(part), Boolean(part?.cache_control));
    }
    return segments;
  }
  if (api === 'chat') {
    if (body.response_format) push(JSON.stringify(body.response_format));
    for (const tool of body.tools ?? []) push(JSON.stringify(tool));
    for (const message of body.messages ?? []) push(`\n${message.role}:${flatten(message.content)}`);
    return segments;
  }
  if (body.text) push(JSON.stringify(body.text));
  for (const tool of body.tools ?? []) push(JSON.stringify(tool));
  if (body.instructions) push(body.instructions);
  const input = Array.isArray(body.input) ? body.input : [{ role: 'user', content: body.input }];
  for (const item of input) push(`\n${item.role ?? item.type}:${flatten(item.content ?? item.output)}`);
  return segments;
}

/** A provider-side prompt cache, shared by every request to one server. */
class PromptCache {
  constructor(minTokens) {
    this.minTokens = minTokens;
    this.entries = new Set();
  }

  /**
   * Anthropic: reads at the longest cached breakpoint prefix; the prefixes up to the last breakpoint are
   * written, and become readable only once this call is answered (`commit`): as with the real cache,
   * concurrent requests with the same new prefix all miss.
   */
  explicit(model, segments) {
    let text = `${model}\u0000`;
    const breakpoints = [];
    for (const segment of segments) {
      text += segment.text;
      if (segment.breakpoint) breakpoints.push(text);
    }
    const total = estimate(text);
    const eligible = breakpoints.filter((prefix) => estimate(prefix) >= this.minTokens);
    let read = 0;
    for (const prefix of eligible) if (this.entries.has(prefix)) read = Math.max(read, estimate(prefix));
    const fresh = eligible.filter((prefix) => !this.entries.has(prefix));
    const write = Math.max(0, Math.max(0, ...fresh.map(estimate)) - read);
    return {
      usage: { input: Math.max(0, total - read - write), cacheRead: read, cacheWrite: write, total },
      commit: () => fresh.forEach((prefix) => this.entries.add(prefix)),
    };
  }

  /** OpenAI: the longest prefix seen before, in 128-token steps from the minimum; every prefix is remembered. */
  automatic(model, segments) {
    const text = `${model}\u0000${segments.map((s) => s.text).join('')}`;
    const total = estimate(text);
    const step = 128 * CHARS_PER_TOKEN;
    let read = 0;
    const prefixes = [];
    for (let end = this.minTokens * CHARS_PER_TOKEN; end <= text.length; end += step) {
      const prefix = text.slice(0, end);
      if (this.entries.has(prefix)) read = estimate(prefix);
      prefixes.push(prefix);
    }
    return {
      usage: { input: total - read, cacheRead: read, cacheWrite: 0, total },
      commit: () => prefixes.forEach((prefix) => this.entries.add(prefix)),
    };
  }
}

function normalize(reply, call, cache) {
  const r = typeof reply === 'string' ? { text: reply } : (reply ?? { text: '' });
  // An error answer is not a prompt the provider processed: no usage, nothing cached.
  if (r.status !== undefined) return r;
  let text = r.text ?? '';
  let toolCalls = r.toolCalls;
  if (r.json !== undefined) {
    if (call.viaTool) toolCalls = [{ name: 'json', input: r.json }];
    else text = JSON.stringify(r.json);
  }
  if (r.usage) return { ...r, text, toolCalls, usage: { cacheRead: 0, cacheWrite: 0, ...r.usage } };
  const segments = segmentsOf(call.api, call.body);
  const prompt =
    call.api === 'anthropic' ? cache.explicit(call.model, segments) : cache.automatic(call.model, segments);
  const output = estimate(text || JSON.stringify(toolCalls ?? ''));
  return { ...r, text, toolCalls, usage: { ...prompt.usage, output }, commitCache: prompt.commit };
}

let ids = 0;
const nextId = (prefix) => `${prefix}_${(++ids).toString(36).padStart(8, '0')}`;

function anthropicBody(reply, call) {
  const content = [];
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const tc of reply.toolCalls ?? [])
    content.push({ type: 'tool_use', id: nextId('toolu'), name: tc.name, input: tc.input });
  return {
    id: nextId('msg'),
    type: 'message',
    role: 'assistant',
    model: call.model,
    content,
    stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage.input,
      output_tokens: reply.usage.output,
      cache_creation_input_tokens: reply.usage.cacheWrite,
      cache_read_input_tokens: reply.usage.cacheRead,
    },
  };
}

function chatBody(reply, call) {
  const toolCalls = (reply.toolCalls ?? []).map((tc) => ({
    id: nextId('call'),
    type: 'function',
    function: { name: tc.name, arguments: JSON.stringify(tc.input) },
  }));
  return {
    id: nextId('chatcmpl'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: call.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text || null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: reply.usage.input + reply.usage.cacheRead,
      prompt_tokens_details: { cached_tokens: reply.usage.cacheRead },
      completion_tokens: reply.usage.output,
      total_tokens: reply.usage.input + reply.usage.cacheRead + reply.usage.output,
    },
  };
}

function responsesBody(reply, call) {
  const output = [];
  if (reply.text) {
    output.push({
      type: 'message',
      id: nextId('msg'),
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  for (const tc of reply.toolCalls ?? []) {
    output.push({
      type: 'function_call',
      id: nextId('fc'),
      call_id: nextId('call'),
      name: tc.name,
      arguments: JSON.stringify(tc.input),
      status: 'completed',
    });
  }
  return {
    id: nextId('resp'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model: call.model,
    output,
    usage: {
      input_tokens: reply.usage.input + reply.usage.cacheRead,
      input_tokens_details: { cached_tokens: reply.usage.cacheRead },
      output_tokens: reply.usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: reply.usage.input + reply.usage.cacheRead + reply.usage.output,
    },
  };
}

const ROUTES = {
  '/v1/messages': { api: 'anthropic', wrap: anthropicBody },
  '/v1/chat/completions': { api: 'chat', wrap: chatBody },
  '/v1/responses': { api: 'responses', wrap: responsesBody },
};

export async function startLatencyModelServer({ latencyMs = 0, respond, cacheMinTokens = 1024 }) {
  const calls = [];
  const cache = new PromptCache(cacheMinTokens);
  const latencyOf = typeof latencyMs === 'function' ? latencyMs : () => latencyMs;
  const server = createServer(async (req, res) => {
    const route = ROUTES[(req.url ?? '').split('?')[0]];
    const raw = await readBody(req);
    if (req.method !== 'POST' || route === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'body is not JSON' } }));
      return;
    }
    const structured = schemaOf(route.api, body);
    const prompt = promptOf(route.api, body);
    const call = {
      index: calls.length,
      api: route.api,
      path: req.url,
      model: body.model,
      body,
      ...prompt,
      schema: structured?.schema,
      viaTool: structured?.viaTool ?? false,
      promptChars: prompt.system.length + prompt.text.length,
      receivedAt: performance.now(),
      answeredAt: NaN,
      usage: undefined,
    };
    calls.push(call);
    let reply;
    try {
      reply = normalize(await respond(call), call, cache);
    } catch (error) {
      reply = { status: 500, body: { error: { message: `responder failed: ${error?.message ?? error}` } } };
    }
    const wait = latencyOf(call);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    call.answeredAt = performance.now();
    call.usage = reply.usage;
    reply.commitCache?.();
    if (reply.status !== undefined) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body ?? {}));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(route.wrap(reply, call)));
  });
  // Connections stay open between calls, as they do with a provider: Node's fetch (undici) drops a connection
  // whose advertised keep-alive is within its 2 s safety margin, so a 1 s timeout here made every call open a
  // new TCP connection, and the bench counted that work on both sides of the loopback as engine overhead.
  // close() ends the open connections itself (closeAllConnections), so they never hold it open.
  server.keepAliveTimeout = 10_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    reset: () => calls.splice(0),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
