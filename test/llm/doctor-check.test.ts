/** checkModels (src/llm/doctor.ts): the rows `skillclimb doctor` prints and the Action's first step reads. */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import {
  checkModelKeys,
  checkModels,
  describeDoctorFailures,
  doctorIdWidth,
  DoctorSelectionError,
  formatDoctorRow,
  selectionIsOffline,
  type DoctorRow,
  type DoctorSelection,
} from '../../src/llm/doctor.js';
import { anthropicOk, OPENAI_BAD_KEY } from '../helpers/model-replies.js';
import { strictNock } from '../helpers/nock-frame.js';

const NO_WAIT = { retryHooks: { sleep: async () => undefined, random: () => 0 } };

function selection(
  editorModel: string,
  renderModel = editorModel,
  graderModel = renderModel,
  source = 'flag',
): DoctorSelection {
  return {
    editorModel,
    renderModel,
    graderModel,
    sources: { editor: source, render: source, grader: source },
  };
}

strictNock();

describe('checkModels', () => {
  it('returns one row per role; roles sharing a model and endpoint share one call', async () => {
    let calls = 0;
    nock('https://api.anthropic.com')
      .post('/v1/messages')
      .reply(200, () => {
        calls++;
        return anthropicOk();
      });
    let t = 1000;
    const seen: string[] = [];
    const report = await checkModels({
      selection: selection('anthropic:claude-haiku-4-5', undefined, undefined, 'config'),
      env: { ANTHROPIC_API_KEY: 'k' },
      options: NO_WAIT,
      now: () => (t += 40),
      onRow: (row) => seen.push(row.role),
    });
    expect(calls).toBe(1);
    expect(seen).toEqual(['editor', 'render', 'grader']);
    expect(report.allOffline).toBe(false);
    expect(report.failed).toEqual([]);
    expect(report.rows[2]).toEqual({
      role: 'grader',
      modelId: 'anthropic:claude-haiku-4-5',
      family: 'anthropic',
      source: 'config',
      status: 'ok',
      latencyMs: 40,
      endpoint: 'https://api.anthropic.com/v1',
      endpointSource: 'default',
      keySource: 'ANTHROPIC_API_KEY',
    });
  });

  it('fails a 401 role with its stage and detail, and a missing key before any call', async () => {
    nock('https://api.openai.com').post('/v1/responses').reply(401, OPENAI_BAD_KEY);
    const report = await checkModels({
      selection: {
        ...selection('anthropic:claude-haiku-4-5', 'openai:gpt-5', 'openai:gpt-5'),
        sources: { editor: 'default', render: 'flag', grader: 'flag' },
      },
      env: { OPENAI_API_KEY: 'o' },
      options: NO_WAIT,
    });
    expect(report.rows.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
    expect(report.rows[0]?.failure).toEqual({
      stage: 'key',
      detail: 'editor model anthropic:claude-haiku-4-5 needs ANTHROPIC_API_KEY',
    });
    expect(report.rows[0]?.endpoint).toBeUndefined();
    expect(report.rows[1]?.failure?.stage).toBe('request failed');
    expect(report.rows[1]?.failure?.detail).toMatch(
      /^render model openai:gpt-5: HTTP 401: Incorrect API key provided \(not retried/,
    );
    expect(report.failed.map((r) => r.role)).toEqual(['editor', 'render', 'grader']);
    const described = describeDoctorFailures(report);
    expect(described).toMatch(
      /^editor model anthropic:claude-haiku-4-5 \(key: needs ANTHROPIC_API_KEY\); render model openai:gpt-5 \(request failed: HTTP 401: /,
    );
    expect(described).toContain('; grader model openai:gpt-5 (request failed: HTTP 401: ');
  });

  it("names each row's own role when roles share one failed call", async () => {
    let calls = 0;
    nock('https://api.openai.com')
      .post('/v1/responses')
      .reply(() => (calls++, [401, OPENAI_BAD_KEY]));
    const report = await checkModels({
      selection: selection('openai:gpt-5'),
      env: { OPENAI_API_KEY: 'o' },
      options: NO_WAIT,
    });
    expect(calls).toBe(1);
    expect(report.failed.map((r) => r.role)).toEqual(['editor', 'render', 'grader']);
    for (const row of report.rows) {
      expect(row.failure?.stage, row.role).toBe('request failed');
      expect(row.failure?.detail, row.role).toMatch(
        new RegExp(`^${row.role} model openai:gpt-5: HTTP 401: Incorrect API key provided \\(not retried`),
      );
    }
    expect(describeDoctorFailures(report)).toMatch(
      /^editor model openai:gpt-5 \(request failed: HTTP 401: .*\); render model openai:gpt-5 \(request failed: HTTP 401: .*\); grader model openai:gpt-5 \(request failed: HTTP 401: /,
    );
  });

  it('reports every role offline without a call, and says so', async () => {
    const report = await checkModels({ selection: selection('offline'), env: {} });
    expect(report.allOffline).toBe(true);
    expect(report.rows.map((r) => [r.role, r.status])).toEqual([
      ['editor', 'offline'],
      ['render', 'offline'],
      ['grader', 'offline'],
    ]);
    expect(selectionIsOffline(selection('offline'))).toBe(true);
    expect(selectionIsOffline(selection('openai:gpt-5', 'offline'))).toBe(false);
  });

  it('throws DoctorSelectionError for a bad id or render and grader disagreeing on offline', async () => {
    await expect(checkModels({ selection: selection('llama3'), env: {} })).rejects.toThrow(
      new DoctorSelectionError(
        'editor model: model id "llama3": expected provider:model, e.g. anthropic:claude-sonnet-4-5, openai:gpt-5, openai-compatible:qwen3 or offline',
      ),
    );
    await expect(
      checkModels({ selection: selection('openai:gpt-5', 'offline', 'openai:gpt-5'), env: {} }),
    ).rejects.toThrow(/^render model offline and grader model openai:gpt-5: both must be offline or both/);
    expect(() => selectionIsOffline(selection('offline', 'gpt-5'))).toThrow(DoctorSelectionError);
  });
});

describe('checkModelKeys', () => {
  it('checks ids, keys and endpoints without any call', () => {
    // Synchronous: there is no call it could make.
    const report = checkModelKeys({
      selection: selection('anthropic:claude-haiku-4-5', 'openai:gpt-5'),
      env: { OPENAI_API_KEY: 'o' },
    });
    expect(report.rows.map((r) => [r.role, r.status, r.endpoint, r.latencyMs])).toEqual([
      ['editor', 'failed', undefined, undefined],
      ['render', 'ok', 'https://api.openai.com/v1', undefined],
      ['grader', 'ok', 'https://api.openai.com/v1', undefined],
    ]);
    expect(describeDoctorFailures(report)).toBe(
      'editor model anthropic:claude-haiku-4-5 (key: needs ANTHROPIC_API_KEY)',
    );
    expect(checkModelKeys({ selection: selection('offline'), env: {} })).toMatchObject({
      allOffline: true,
      failed: [],
    });
    expect(() =>
      checkModelKeys({ selection: selection('openai:gpt-5', 'offline', 'openai:gpt-5'), env: {} }),
    ).toThrow(DoctorSelectionError);
    expect(() => checkModelKeys({ selection: selection('gpt-5'), env: {} })).toThrow(
      /^editor model: model id "gpt-5": expected provider:model/,
    );
  });
});

describe('formatDoctorRow', () => {
  const base: Omit<DoctorRow, 'status'> = {
    role: 'render',
    modelId: 'openai:gpt-5',
    family: 'openai',
    source: 'config',
  };

  it('prints the three kinds of row in the doctor layout', () => {
    const width = doctorIdWidth(selection('openai:gpt-5', 'openai:gpt-5', 'anthropic:claude-haiku-4-5'));
    expect(width).toBe('anthropic:claude-haiku-4-5'.length + 2);
    expect(
      formatDoctorRow({ ...base, status: 'ok', latencyMs: 250, endpoint: 'https://api.openai.com/v1' }, 14),
    ).toBe(
      'render  openai:gpt-5  family=openai    ok          250 ms  https://api.openai.com/v1 (model: config)',
    );
    expect(formatDoctorRow({ ...base, status: 'offline', modelId: 'offline' }, 9)).toBe(
      'render  offline  family=openai    ok       offline (no model call; model: config)',
    );
    expect(
      formatDoctorRow({ ...base, status: 'failed', failure: { stage: 'timeout', detail: 'no answer' } }, 14),
    ).toBe('render  openai:gpt-5  family=openai    FAILED   timeout: no answer');
  });
});
