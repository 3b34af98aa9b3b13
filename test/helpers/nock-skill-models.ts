/**
 * The three skill-iterate roles (editor, render, grader) and the silencing probe's writer served by nock at
 * Anthropic's Messages API, so the real provider code runs: each request is told apart by its
 * structured-output schema (the grader's has `verdicts`, the editor's `old_string`, the probe writer's
 * `probes`, a render has none), answered by the test's script, and recorded.
 */
import nock from 'nock';
import { createModels } from '../../src/llm/factory.js';
import type { SkillModels } from '../../src/ports/models.js';
import { anthropicMessage } from './model-replies.js';

const API = 'https://api.anthropic.com';

export interface SkillScript {
  /** The render's answer, from its system prompt (the SKILL.md) and its user message (the scenario). */
  render(call: { system: string; user: string }): string;
  /** Which of the asked assertion ids pass, from the whole grader request text (it quotes the render). */
  grade(call: { text: string; ids: number[] }): number[];
  /** The editor's proposal for its n-th call (0-based), from the request text. */
  propose(call: { text: string; index: number }): {
    description: string;
    old_string: string;
    new_string: string;
  };
  /** The silencing probe's answer for its n-th call (0-based); default: no probe. */
  probe?(call: { text: string; index: number }): {
    probes: Array<{ title: string; file: string; hunk: string }>;
  };
  /**
   * What a call's answer waits for (the call is recorded when it arrives): answered once the promise
   * resolves, failed at the HTTP layer when it rejects. Default: every call is answered at once.
   */
  hold?(call: { role: 'editor' | 'render' | 'grader' | 'probe'; text: string }): Promise<void> | undefined;
}

export interface RecordedBodies {
  editor: string[];
  render: Array<{ system: string; user: string }>;
  grader: string[];
  /** The probe writer's requests: system prompt and messages. */
  probe: string[];
  /** Every call in the order it arrived: its role and its text (system prompt and messages). */
  order: Array<{ role: 'editor' | 'render' | 'grader' | 'probe'; text: string }>;
}

interface Block {
  type?: string;
  text?: string;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((b: Block & { content?: unknown }) => b.text ?? textOf(b.content)).join('');
  return '';
}

function roleOf(body: Record<string, unknown>): 'editor' | 'render' | 'grader' | 'probe' | 'doctor' {
  const format = (body.output_config as { format?: { schema?: { required?: string[] } } } | undefined)
    ?.format;
  const required = format?.schema?.required ?? [];
  // The Action's model check before a run (src/llm/doctor.ts): `{"ok": true}`.
  if (required.length === 1 && required[0] === 'ok') return 'doctor';
  if (required.includes('verdicts')) return 'grader';
  if (required.includes('old_string')) return 'editor';
  if (required.includes('probes')) return 'probe';
  return 'render';
}

/**
 * Serves every Messages call of the test with `script` (at Anthropic's API, or at `api`: a server set with
 * ANTHROPIC_BASE_URL); returns the recorded request texts per role.
 */
export function serveSkillModels(script: SkillScript, api = API): RecordedBodies {
  const bodies: RecordedBodies = { editor: [], render: [], grader: [], probe: [], order: [] };
  nock(new URL(api).origin)
    .persist()
    .post('/v1/messages')
    .reply(200, (_uri, raw) => {
      const body = raw as Record<string, unknown>;
      const role = roleOf(body);
      const messages = (body.messages as Array<{ content: unknown }>)
        .map((m) => textOf(m.content))
        .join('\n');
      const whole = `${textOf(body.system)}\n${messages}`;
      if (role !== 'doctor') bodies.order.push({ role, text: whole });
      let text: string;
      if (role === 'doctor') {
        text = '{"ok": true}';
      } else if (role === 'render') {
        const call = { system: textOf(body.system), user: messages };
        bodies.render.push(call);
        text = script.render(call);
      } else if (role === 'grader') {
        bodies.grader.push(JSON.stringify(body));
        const ids = (/ids: ([\d, ]+)\)/.exec(whole)?.[1] ?? '')
          .split(',')
          .map((x) => Number(x.trim()))
          .filter((n) => Number.isInteger(n) && n > 0);
        const passing = new Set(script.grade({ text: whole, ids }));
        text = JSON.stringify({
          verdicts: Object.fromEntries(
            ids.map((id) => [String(id), { verdict: passing.has(id), reason: 'scripted' }]),
          ),
        });
      } else if (role === 'probe') {
        bodies.probe.push(`${textOf(body.system)}\n${messages}`);
        const index = bodies.probe.length - 1;
        text = JSON.stringify(script.probe?.({ text: messages, index }) ?? { probes: [] });
      } else {
        bodies.editor.push(JSON.stringify(body));
        text = JSON.stringify(script.propose({ text: messages, index: bodies.editor.length - 1 }));
      }
      const answer = anthropicMessage([{ type: 'text', text }], { input_tokens: 10, output_tokens: 5 });
      const held = role === 'doctor' ? undefined : script.hold?.({ role, text: whole });
      return held ? held.then(() => answer) : answer;
    });
  return bodies;
}

/**
 * The real model layer on Anthropic's API (served by serveSkillModels), retries never sleeping; `baseUrl`
 * sends it to another server instead, as ANTHROPIC_BASE_URL does.
 */
export function anthropicSkillModels(baseUrl?: string): SkillModels {
  return createModels(
    { model: 'anthropic:claude-sonnet-4-5' },
    { ANTHROPIC_API_KEY: 'sk-ant-test', ...(baseUrl === undefined ? {} : { ANTHROPIC_BASE_URL: baseUrl }) },
    {
      retryHooks: { sleep: async () => undefined, random: () => 0 },
      retry: { baseDelayMs: 1 },
    },
  );
}
