/**
 * A loopback model server with injected latency, for benchmarks that drive the REAL provider layer over
 * real HTTP. It speaks the three wire formats skillclimb's providers use:
 *   POST <base>/v1/messages           Anthropic Messages        (ANTHROPIC_BASE_URL=<base>)
 *   POST <base>/v1/chat/completions   OpenAI Chat Completions   (OPENAI_BASE_URL=<base>/v1, openai-compatible:)
 *   POST <base>/v1/responses          OpenAI Responses          (OPENAI_BASE_URL=<base>/v1, openai:)
 * A scripted responder decides each answer from the call; the server wraps it in the format of the path,
 * holds it for the latency, and records the call (when it arrived, when it was answered).
 *
 *   const server = await startLatencyModelServer({ latencyMs: 200, respond: (call) => 'text' });
 *   server.url; server.calls; server.reset(); await server.close();
 *
 * `call`: { index, api: 'anthropic' | 'chat' | 'responses', path, model, body, system, text, receivedAt,
 *           answeredAt } — `system` and `text` are the request's system prompt and its other messages
 *           flattened to text (what a responder usually routes on).
 * A reply is a string (the answer text), or an object:
 *   { text, usage?: { input, output } }            a text answer with chosen token counts
 *   { toolCalls: [{ name, input }], text? }         a tool-call turn (tool_use / tool_calls / function_call)
 *   { status, body }                                a raw HTTP error (e.g. 529 overloaded, 429)
 * `latencyMs` may be a number or a function of the call (per-call latency, e.g. slower reviewer).
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

const estimate = (text) => Math.max(1, Math.round(text.length / 4));

function normalize(reply, call) {
  const r = typeof reply === 'string' ? { text: reply } : (reply ?? { text: '' });
  const text = r.text ?? '';
  const usage = r.usage ?? { input: estimate(call.system + call.text), output: estimate(text) };
  return { ...r, text, usage };
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
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
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
      prompt_tokens: reply.usage.input,
      completion_tokens: reply.usage.output,
      total_tokens: reply.usage.input + reply.usage.output,
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
      input_tokens: reply.usage.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: reply.usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: reply.usage.input + reply.usage.output,
    },
  };
}

const ROUTES = {
  '/v1/messages': { api: 'anthropic', wrap: anthropicBody },
  '/v1/chat/completions': { api: 'chat', wrap: chatBody },
  '/v1/responses': { api: 'responses', wrap: responsesBody },
};

export async function startLatencyModelServer({ latencyMs = 0, respond }) {
  const calls = [];
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
    const call = {
      index: calls.length,
      api: route.api,
      path: req.url,
      model: body.model,
      body,
      ...promptOf(route.api, body),
      receivedAt: performance.now(),
      answeredAt: NaN,
    };
    calls.push(call);
    let reply;
    try {
      reply = normalize(await respond(call), call);
    } catch (error) {
      reply = { status: 500, body: { error: { message: `responder failed: ${error?.message ?? error}` } } };
    }
    const wait = latencyOf(call);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    call.answeredAt = performance.now();
    if (reply.status !== undefined) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body ?? {}));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(route.wrap(reply, call)));
  });
  // Keep-alive connections would hold close() open; the providers reconnect as needed.
  server.keepAliveTimeout = 1000;
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
