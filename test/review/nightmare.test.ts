/**
 * nightmare's independent verifier: a fresh reviewer with read-only tools, driven through the AI SDK's tool
 * calling against multi-step tool-call responses in each provider's real wire format.
 */
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { runReviewLoop } from '../../src/review/run.js';
import { anthropicMessage } from '../helpers/model-replies.js';
import { strictNock } from '../helpers/nock-frame.js';
import {
  ANTHROPIC,
  anthropicReply,
  checkAnswer,
  git,
  harness,
  makeReviewRepo,
  OPENAI,
  openaiReply,
  removeReviewDirs,
  reviewAnswer,
  stageFile,
  type Recorded,
} from '../helpers/review-fixtures.js';

strictNock();
afterEach(removeReviewDirs);

const USAGE = { input_tokens: 900, output_tokens: 80 };

function anthropicToolUse(calls: Array<{ id: string; name: string; input: Record<string, unknown> }>) {
  return anthropicMessage(
    [
      { type: 'text', text: 'Checking the code myself.' },
      ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })),
    ],
    USAGE,
    'tool_use',
  );
}

function recordAnthropic(recorded: Recorded, reply: unknown) {
  nock(ANTHROPIC)
    .post('/v1/messages', (body: Record<string, unknown>) => {
      recorded.bodies.push(body);
      return true;
    })
    .reply(200, reply as Record<string, unknown>);
}

/** The tool results a request sends back, by tool_use id (Anthropic's `tool_result` blocks). */
function anthropicToolResults(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const message of body.messages as Array<{ content: unknown }>) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block.type !== 'tool_result') continue;
      const content = block.content;
      out[block.tool_use_id as string] =
        typeof content === 'string'
          ? content
          : (content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
    }
  }
  return out;
}

describe('nightmare verifier', () => {
  it('reads the checkout through Anthropic tool_use steps, confined and bounded, and its verdict gates the round', async () => {
    const dir = await makeReviewRepo();
    await symlink('/etc', path.join(dir, 'src', 'escape'));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'a link out of the repository');
    const recorded: Recorded = { bodies: [] };
    anthropicReply(reviewAnswer(8, 'ready', [], 'Looks right.'), recorded);
    recordAnthropic(
      recorded,
      anthropicToolUse([{ id: 'toolu_01', name: 'read_file', input: { path: 'src/calc.ts' } }]),
    );
    recordAnthropic(
      recorded,
      anthropicToolUse([
        { id: 'toolu_02', name: 'search_text', input: { query: 'n / 3' } },
        { id: 'toolu_03', name: 'read_file', input: { path: '../../etc/passwd' } },
        { id: 'toolu_04', name: 'read_file', input: { path: 'src/escape/hosts' } },
        { id: 'toolu_05', name: 'list_folder', input: { path: '' } },
      ]),
    );
    const verdict = reviewAnswer(5, 'not ready', [
      {
        title: 'half() divides by 3, contradicting the README',
        file: 'src/calc.ts',
        line: 6,
        effort: 'trivial',
      },
    ]);
    recordAnthropic(
      recorded,
      anthropicMessage([{ type: 'text', text: `Verified.\n${JSON.stringify(verdict)}` }], USAGE),
    );
    // the verifier's finding is checked against the code before it is posted; nightmare has no extra
    // confirmation (its verifier is the fresh second review)
    anthropicReply(checkAnswer(true));
    // nightmare includes hard's debate: the executor concedes, so there is nothing for the reviewer to rule on
    openaiReply({
      rebuttals: [{ weakness: 1, stance: 'accept', argument: 'It is a bug.', evidence: 'calc.ts:6' }],
    });

    const h = await harness(dir, {
      options: { difficulty: 'nightmare', fix: 'none', maxRounds: 1, verifierLimits: { maxToolCalls: 4 } },
    });
    const outcome = await runReviewLoop(h.options, h.ports);

    // the reviewer said ready; the verifier found the bug: the round is not positive and keeps the worse verdict
    expect(outcome.status).toBe('reviewed');
    expect(outcome.rounds[0]).toMatchObject({ score: 5, verdict: 'not ready', positive: false });
    expect(outcome.blockers).toEqual([
      expect.objectContaining({
        title: 'half() divides by 3, contradicting the README',
        source: 'verifier',
        rank: 1,
      }),
    ]);
    const verifierSteps = recorded.bodies.slice(1);
    expect(verifierSteps).toHaveLength(3);
    expect((verifierSteps[0]!.tools as Array<{ name: string }>).map((t) => t.name).sort()).toEqual([
      'list_folder',
      'read_file',
      'search_text',
    ]);
    // the verifier repeats the scope limits (it is fresh) and gets the claims
    expect(JSON.stringify(verifierSteps[0]!.messages)).toContain('SCOPE LIMITS');
    const step2 = anthropicToolResults(verifierSteps[1]!);
    expect(step2.toolu_01).toContain('return n / 3;');
    const step3 = anthropicToolResults(verifierSteps[2]!);
    expect(step3.toolu_02).toContain('src/calc.ts:6:   return n / 3;');
    expect(step3.toolu_03).toBe('Refused: ".." segments are refused.');
    expect(step3.toolu_04).toBe('No file src/escape/hosts at the reviewed head.');
    expect(step3.toolu_05).toMatch(/^Tool budget spent \(4 calls, \d+ bytes\)/);
    const log = await stageFile(dir, 'AUTO_REVIEW.md');
    expect(log).toContain('### Verifier Raw Response (nightmare)');
    expect(log).toContain('Verified.');
  });

  it('speaks OpenAI Responses function calls, and its last step has tools switched off', async () => {
    const dir = await makeReviewRepo();
    const bodies: Array<Record<string, unknown>> = [];
    openaiReply(reviewAnswer(8, 'ready'));
    const response = (output: unknown[]) => ({
      id: 'resp_verifier',
      object: 'response',
      created_at: 1741476542,
      status: 'completed',
      model: 'gpt-5-2025-08-07',
      output,
      usage: {
        input_tokens: 800,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 60,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 860,
      },
    });
    nock(OPENAI)
      .post('/v1/responses', (b: Record<string, unknown>) => {
        bodies.push(b);
        return true;
      })
      .reply(
        200,
        response([
          { type: 'reasoning', id: 'rs_1', summary: [] },
          {
            type: 'function_call',
            id: 'fc_67ca09c6bedc',
            call_id: 'call_unLAR8MvFNptu',
            name: 'read_file',
            arguments: '{"path":"src/calc.ts"}',
            status: 'completed',
          },
        ]),
      )
      .post('/v1/responses', (b: Record<string, unknown>) => {
        bodies.push(b);
        return true;
      })
      .reply(
        200,
        response([
          {
            type: 'message',
            id: 'msg_final',
            status: 'completed',
            role: 'assistant',
            content: [
              { type: 'output_text', text: JSON.stringify(reviewAnswer(7, 'almost')), annotations: [] },
            ],
          },
        ]),
      );
    const h = await harness(dir, {
      reviewer: 'openai:gpt-5',
      executor: 'anthropic:claude-sonnet-4-5',
      options: { difficulty: 'nightmare', verifierLimits: { maxToolCalls: 1 } },
    });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('acquitted');
    expect(outcome.rounds[0]).toMatchObject({ score: 7, verdict: 'almost' });
    expect(bodies).toHaveLength(2);
    expect(bodies[0]!.tool_choice).not.toBe('none');
    expect(bodies[1]!.tool_choice).toBe('none');
    const input = bodies[1]!.input as Array<Record<string, unknown>>;
    const output = input.find((item) => item.type === 'function_call_output');
    expect(output).toMatchObject({ call_id: 'call_unLAR8MvFNptu' });
    expect(String(output!.output)).toContain('return n / 3;');
    expect(outcome.receipt).toMatchObject({
      reviewer_family: 'openai',
      executor_family: 'anthropic',
      difficulty: 'nightmare',
    });
  });
});
