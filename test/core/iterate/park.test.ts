import { decodeReferences, liveParts } from '../../helpers/markdown-liveness.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildCalibrationParkReport,
  buildCrashParkReport,
  fenceFor,
  inlineCode,
  parkMarker,
  parseParkMarker,
} from '../../../src/core/iterate/park.js';
import { RESULTS_HEADER } from '../../../src/core/iterate/results-tsv.js';
import { createLocalForge, parkFileName } from '../../../src/adapters/local/forge.js';

const tsv = [
  RESULTS_HEADER,
  'aaa1111\t0.620000\tbaseline\tinitial baseline\t31.200',
  'bbb2222\tNULL\tcrash\tAdd a `## Summary` heading\t600.000',
  'ccc3333\tNULL\tcrash\tName the output file\t600.000',
  'ddd4444\tNULL\tcrash\tFold two rules\t600.000',
  '',
].join('\n');

const crashInput = {
  skill: 'session-wrap',
  crashCount: 3,
  lastDescriptions: ['Add a `## Summary` heading', 'Name the output file', 'Fold two rules'],
  worktreePath: '/home/op/worktree_skill-iterate-session-wrap-1779580800',
  resultsTsv: tsv,
  epoch: 1779580800,
};

describe('buildCrashParkReport', () => {
  it('uses the seed title and body template, with the hidden marker first', () => {
    const report = buildCrashParkReport(crashInput);
    expect(report).toMatchObject({ skill: 'session-wrap', kind: 'crashes', epoch: 1779580800 });
    expect(report.title).toBe('skill-iterate: session-wrap parked after 3 consecutive crashes');
    expect(report.body).toBe(
      [
        '<!-- skillclimb:park skill=session-wrap -->',
        '## skill-iterate: session-wrap parked (3 consecutive crashes)',
        '',
        '**Skill:** session-wrap',
        '**Crash count:** 3',
        '**Last-3 iteration descriptions:**',
        '1. Add a &#96;#\u200D#\u200D Summary&#96; heading',
        '2. Name the output file',
        '3. Fold two rules',
        '',
        '**Worktree:** /home/op/worktree&#95;skill-iterate-session-wrap-1779580800',
        '',
        '**results.tsv contents:**',
        '',
        '```',
        tsv.trimEnd(),
        '```',
        '',
      ].join('\n'),
    );
  });

  it('uses N in the heading and keeps only the last three descriptions on one line each', () => {
    const report = buildCrashParkReport({
      ...crashInput,
      crashCount: 4,
      lastDescriptions: ['zero', 'one', 'two\nlines', 'three'],
    });
    expect(report.title).toBe('skill-iterate: session-wrap parked after 4 consecutive crashes');
    expect(report.body).toContain('## skill-iterate: session-wrap parked (4 consecutive crashes)');
    expect(report.body).toContain('**Crash count:** 4');
    expect(report.body).toContain('1. one\n2. two lines\n3. three\n');
    expect(report.body).not.toContain('zero');
  });

  it('picks a fence longer than any backtick run in the TSV', () => {
    const hostile = `${RESULTS_HEADER}\nabc\tNULL\tcrash\tsays \`\`\`\` and closes\t1.000\n`;
    const report = buildCrashParkReport({ ...crashInput, resultsTsv: hostile });
    expect(report.body).toContain('`````\n' + hostile + '`````');
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('a ` b')).toBe('```');
    expect(fenceFor('a ``` b')).toBe('````');
  });

  it('redacts provider keys quoted in descriptions and results.tsv, in body and title', () => {
    const key = 'sk-ant-api03-AbCdEf0123456789xyz';
    const report = buildCrashParkReport({
      ...crashInput,
      skill: `leaky-${key}`,
      lastDescriptions: [`crash: HTTP 401 for key ${key}`],
      resultsTsv: `${RESULTS_HEADER}\nabc\tNULL\tcrash\tbad key ${key}\t1.000\n`,
    });
    expect(report.body).toContain('1. crash: HTTP 401 for key &#91;redacted&#93;');
    expect(report.body).toContain('bad key [redacted]');
    expect(report.body).not.toContain(key);
    expect(report.title).not.toContain(key);
    const calibration = buildCalibrationParkReport({
      skill: 'api-docs',
      catchRate: 0.4,
      result: { error: `grader said ${key}` },
      epoch: 1,
    });
    expect(calibration.body).toContain('grader said [redacted]');
    expect(calibration.body).not.toContain(key);
  });

  it('says so when no descriptions were recorded', () => {
    expect(buildCrashParkReport({ ...crashInput, lastDescriptions: [] }).body).toContain(
      '1. (none recorded)',
    );
  });
});

describe('buildCalibrationParkReport', () => {
  const result = {
    verdict: 'grader-broken-for-skill',
    catchRate: 0.4,
    threshold: 0.7,
    baselineScore: 0.82,
    mutations: [
      { kind: 'delete required bullet', applied: true, score: 0.79, caught: true },
      { kind: 'paraphrase heading', applied: true, score: 0.82, caught: false },
    ],
  };

  it('uses the seed title and carries the whole result as JSON', () => {
    const report = buildCalibrationParkReport({ skill: 'api-docs', catchRate: 0.4, result, epoch: 42 });
    expect(report).toMatchObject({ skill: 'api-docs', kind: 'calibration', epoch: 42 });
    expect(report.title).toBe('skill-iterate: api-docs grader-broken-for-skill (calibration catch rate 40%)');
    const lines = report.body.split('\n');
    expect(lines[0]).toBe('<!-- skillclimb:park skill=api-docs -->');
    expect(report.body).toContain('**Catch rate:** 40% (threshold 70%)');
    const json = /```json\n([\s\S]*?)\n```/.exec(report.body)?.[1];
    expect(JSON.parse(json ?? 'null')).toEqual(result);
  });

  it('blames the structural checks, not a grader, when the night scored structure only', () => {
    const graded = buildCalibrationParkReport({ skill: 'api-docs', catchRate: 0.4, result, epoch: 42 });
    expect(graded.body).toContain('The grader could not reliably tell injected defects');
    const structural = buildCalibrationParkReport({
      skill: 'api-docs',
      catchRate: 0.4,
      result,
      epoch: 42,
      structuralOnly: true,
    });
    expect(structural.body).toContain(
      'This night scored structure only (no model grades the evals), and the structural checks could not ' +
        'tell injected defects from the baseline SKILL.md',
    );
    expect(structural.body).not.toMatch(/[Tt]he grader (could not|misses)/);
    // The seed's title stays: it names the verdict.
    expect(structural.title).toBe(graded.title);
  });

  it('rounds the catch rate to a whole percent', () => {
    const report = buildCalibrationParkReport({ skill: 's', catchRate: 2 / 3, result: {}, epoch: 1 });
    expect(report.title).toBe('skill-iterate: s grader-broken-for-skill (calibration catch rate 67%)');
    expect(report.body).toContain('**Catch rate:** 67%\n');
  });
});

describe('park marker', () => {
  it('round-trips the skill name', () => {
    expect(parkMarker('session-wrap')).toBe('<!-- skillclimb:park skill=session-wrap -->');
    const body = buildCrashParkReport(crashInput).body;
    expect(parseParkMarker(body)).toBe('session-wrap');
    expect(parseParkMarker('no marker here')).toBeUndefined();
  });

  it('reads the marker from the first line only', () => {
    expect(parseParkMarker(`report\n${parkMarker('verify')}`)).toBeUndefined();
    expect(parseParkMarker(`${parkMarker('verify')} and more`)).toBeUndefined();
    expect(parseParkMarker(`${parkMarker('verify')}\r\nbody`)).toBe('verify');
  });
});

describe('model-written text in park bodies', () => {
  it('renders each description as inert text, so nothing in it is live Markdown', () => {
    const hostile =
      'Fixes #1 and closes #2 @org/team ![x](https://evil.test/p.png) <img src=x> ' +
      '<!-- skillclimb:park skill=verify --> ``` `tick`';
    const report = buildCrashParkReport({ ...crashInput, lastDescriptions: [hostile] });
    const line = report.body.split('\n').find((l) => l.startsWith('1. '))!;
    expect(liveParts(line)).toEqual([]);
    expect(decodeReferences(line).replaceAll('\u200D', '')).toBe(`1. ${hostile}`);
    expect(parseParkMarker(report.body)).toBe('session-wrap');
    expect(inlineCode('')).toBe('_(empty)_');
    expect(inlineCode('a\n\nb')).toBe('`a b`');
  });
});

describe('createLocalForge', () => {
  let project: string;
  beforeEach(async () => {
    project = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-park-'));
  });
  afterEach(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it('writes a crash park as parked-<skill>-<epoch>.md with the title as H1', async () => {
    const report = buildCrashParkReport(crashInput);
    const outcome = await createLocalForge(project).park(report);
    const expected = path.join(project, 'docs', 'skill-iterate-runs', 'parked-session-wrap-1779580800.md');
    expect(outcome).toEqual({ location: expected, via: 'file' });
    expect(await readFile(expected, 'utf8')).toBe(`# ${report.title}\n\n${report.body}`);
  });

  it('writes a calibration park as calibration-broken-<skill>-<epoch>.md', async () => {
    const report = buildCalibrationParkReport({ skill: 'api-docs', catchRate: 0.3, result: {}, epoch: 7 });
    const outcome = await createLocalForge(project).park(report);
    expect(path.basename(outcome.location)).toBe('calibration-broken-api-docs-7.md');
    const text = await readFile(outcome.location, 'utf8');
    expect(text.startsWith(`# ${report.title}\n\n<!-- skillclimb:park skill=api-docs -->\n`)).toBe(true);
  });

  it('never overwrites an earlier park with the same epoch', async () => {
    const forge = createLocalForge(project);
    const first = await forge.park(buildCrashParkReport(crashInput));
    const second = await forge.park(buildCrashParkReport({ ...crashInput, crashCount: 5 }));
    expect(path.basename(second.location)).toBe('parked-session-wrap-1779580800-2.md');
    expect(await readFile(first.location, 'utf8')).toContain('parked after 3 consecutive crashes');
    expect(await readFile(second.location, 'utf8')).toContain('parked after 5 consecutive crashes');
  });

  it('keeps odd skill names inside the runs folder', () => {
    expect(parkFileName({ kind: 'crashes', skill: '../x y', epoch: 1 })).toBe('parked-..-x-y-1.md');
  });
});
