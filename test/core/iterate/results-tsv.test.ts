import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESULTS_HEADER, formatResultsRow, parseResultsTsv } from '../../../src/core/iterate/results-tsv.js';
import { appendResultsRow, readResultsRows } from '../../../src/iterate/results-file.js';
import type { ResultsRow } from '../../../src/core/iterate/run-result.js';

const row = (over: Partial<ResultsRow> = {}): ResultsRow => ({
  commit: 'abc1234',
  score: 0.5,
  status: 'keep',
  description: 'tighten the summary heading',
  wallSeconds: 12.5,
  ...over,
});

describe('formatResultsRow', () => {
  it('writes score with 6 decimals and wall seconds with 3', () => {
    expect(formatResultsRow(row({ score: 0.123456789, wallSeconds: 41.23456 }))).toBe(
      'abc1234\t0.123457\tkeep\ttighten the summary heading\t41.235',
    );
  });

  it('writes NULL for an unscorable iteration', () => {
    expect(formatResultsRow(row({ score: null, status: 'crash' })).split('\t')[1]).toBe('NULL');
    expect(formatResultsRow(row({ score: Number.NaN })).split('\t')[1]).toBe('NULL');
  });

  it('turns tabs, newlines and carriage returns in the description into single spaces', () => {
    const line = formatResultsRow(row({ description: 'a\tb\nc\r\nd\re' }));
    expect(line.split('\t')).toHaveLength(5);
    expect(line.split('\t')[3]).toBe('a b c d e');
    expect(line).not.toMatch(/[\n\r]/);
  });

  it('also removes the other separators Python splitlines honours', () => {
    const line = formatResultsRow(row({ description: 'a\u2028b\vc\x1ed' }));
    expect(line.split('\t')[3]).toBe('a b c d');
  });

  it('redacts a provider key quoted in the description', () => {
    const line = formatResultsRow(
      row({
        status: 'crash',
        description: 'crash: HTTP 401 invalid x-api-key sk-ant-api03-AbCdEf0123456789xyz',
      }),
    );
    expect(line.split('\t')[3]).toBe('crash: HTTP 401 invalid x-api-key [redacted]');
    expect(line).not.toContain('sk-ant-api03');
  });

  it('never writes NaN or a negative wall time', () => {
    expect(formatResultsRow(row({ wallSeconds: Number.NaN })).endsWith('\t0.000')).toBe(true);
    expect(formatResultsRow(row({ wallSeconds: -3 })).endsWith('\t0.000')).toBe(true);
  });
});

describe('parseResultsTsv', () => {
  const rows: ResultsRow[] = [
    row({
      commit: 'aaaaaaa',
      score: 0.61,
      status: 'baseline',
      description: 'initial baseline',
      wallSeconds: 30,
    }),
    row({ commit: 'bbbbbbb', score: 0.7, status: 'keep', wallSeconds: 44.125 }),
    row({ commit: 'ccccccc', score: null, status: 'crash', description: 'timeout', wallSeconds: 600 }),
    row({
      commit: '',
      score: 0.65,
      status: 'revert',
      description: 'old_string not unique',
      wallSeconds: 1.5,
    }),
  ];
  const text = `${RESULTS_HEADER}\n${rows.map((r) => formatResultsRow(r)).join('\n')}\n`;

  it('round-trips formatted rows', () => {
    expect(parseResultsTsv(text)).toEqual(rows);
  });

  it('round-trips a description after sanitising', () => {
    const [parsed] = parseResultsTsv(formatResultsRow(row({ description: 'x\ty\nz' })) + '\n');
    expect(parsed?.description).toBe('x y z');
  });

  it('reads a file without a header', () => {
    expect(parseResultsTsv(rows.map((r) => formatResultsRow(r)).join('\n') + '\n')).toEqual(rows);
  });

  it('reads CRLF line ends', () => {
    expect(parseResultsTsv(text.replace(/\n/g, '\r\n'))).toEqual(rows);
  });

  it('skips a torn last line instead of throwing', () => {
    const whole = formatResultsRow(row({ commit: 'ddddddd', wallSeconds: 123.456 }));
    for (let cut = 1; cut < whole.length; cut++) {
      const parsed = parseResultsTsv(text + whole.slice(0, cut));
      expect(parsed, `cut at ${cut}`).toEqual(rows);
    }
  });

  it('keeps a whole last line that lacks only its newline', () => {
    const last = row({ commit: 'eeeeeee', wallSeconds: 2 });
    expect(parseResultsTsv(text + formatResultsRow(last))).toEqual([...rows, last]);
  });

  it('skips garbage, blank and unknown-status lines and keeps the rest', () => {
    const messy = [
      RESULTS_HEADER,
      'not a row',
      '',
      formatResultsRow(rows[0]!),
      'abc\t0.5\tmaybe\tx\t1.000',
      'abc\tzero\tkeep\tx\t1.000',
      'abc\t0.5\tkeep\tx\tsoon',
      formatResultsRow(rows[1]!),
      '',
    ].join('\n');
    expect(parseResultsTsv(messy)).toEqual([rows[0], rows[1]]);
  });

  it('joins a hand-edited description that contains tabs', () => {
    const [parsed] = parseResultsTsv('abc1234\t0.500000\tkeep\tone\ttwo\t1.000\n');
    expect(parsed).toMatchObject({ description: 'one two', wallSeconds: 1 });
  });

  it('returns nothing for empty text', () => {
    expect(parseResultsTsv('')).toEqual([]);
    expect(parseResultsTsv(`${RESULTS_HEADER}\n`)).toEqual([]);
  });
});

describe('results file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-results-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates parent folders and writes the header once', async () => {
    const file = path.join(dir, 'skills', 's', 'evals', 'results.tsv');
    await appendResultsRow(file, row({ status: 'baseline' }));
    await appendResultsRow(file, row({ commit: 'bcdefab' }));
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    expect(await readdir(path.dirname(file))).toEqual(['results.tsv']);
    expect(lines[0]).toBe(RESULTS_HEADER);
    expect(lines.filter((l) => l === RESULTS_HEADER)).toHaveLength(1);
    expect(lines).toHaveLength(4);
    expect(text.endsWith('\n')).toBe(true);
    expect(await readResultsRows(file)).toEqual([row({ status: 'baseline' }), row({ commit: 'bcdefab' })]);
  });

  it('returns [] for a missing file', async () => {
    expect(await readResultsRows(path.join(dir, 'nope.tsv'))).toEqual([]);
  });

  it('adds a header to an existing empty file', async () => {
    const file = path.join(dir, 'results.tsv');
    await writeFile(file, '');
    await appendResultsRow(file, row());
    expect((await readFile(file, 'utf8')).split('\n')[0]).toBe(RESULTS_HEADER);
  });

  it('starts a fresh line after a torn last line so the new row stays whole', async () => {
    const file = path.join(dir, 'results.tsv');
    await writeFile(file, `${RESULTS_HEADER}\n${formatResultsRow(row())}\nabc1234\t0.5`);
    await appendResultsRow(file, row({ commit: 'fffffff' }));
    expect(await readResultsRows(file)).toEqual([row(), row({ commit: 'fffffff' })]);
  });

  it('concurrent appends in one process produce whole lines and one header', async () => {
    const file = path.join(dir, 'results.tsv');
    const many = Array.from({ length: 40 }, (_, i) =>
      row({ commit: i.toString(16).padStart(7, '0'), description: `edit ${i} `.repeat(50) }),
    );
    await Promise.all(many.map((r) => appendResultsRow(file, r)));
    const text = await readFile(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(RESULTS_HEADER);
    expect(lines).toHaveLength(41);
    const parsed = await readResultsRows(file);
    expect(parsed.map((r) => r.commit).sort()).toEqual(many.map((r) => r.commit).sort());
    expect(parsed.every((r) => r.description.startsWith('edit '))).toBe(true);
  });

  it('concurrent appends from separate processes produce whole lines and one header', async () => {
    const file = path.join(dir, 'results.tsv');
    // Child processes run the real module, bundled to plain JavaScript (Node 20 cannot import .ts).
    const bundle = path.join(dir, 'results-file.mjs');
    await build({
      entryPoints: [path.resolve('src/iterate/results-file.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
      logLevel: 'silent',
    });
    const script = `
      const { appendResultsRow } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
      const id = process.argv[1];
      await Promise.all(Array.from({ length: 10 }, (_, i) => appendResultsRow(${JSON.stringify(file)}, {
        commit: id + i, score: 0.5, status: 'revert', description: 'x'.repeat(5000), wallSeconds: 1,
      })));
    `;
    const run = (id: string) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, id], {
          stdio: 'inherit',
        });
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`child exited ${code}`))));
      });
    await Promise.all(['p', 'q', 'r', 's'].map(run));
    // A reader racing a writer may add one harmless blank line; what matters is whole rows and one header.
    const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
    expect(lines[0]).toBe(RESULTS_HEADER);
    expect(lines.filter((l) => l === RESULTS_HEADER)).toHaveLength(1);
    expect(lines).toHaveLength(41);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const parsed = await readResultsRows(file);
    expect(parsed).toHaveLength(40);
    expect(parsed.every((r) => r.description.length === 5000)).toBe(true);
  });
});
