import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  formatJsonPath,
  parseJsonFileWith,
  zodExpectation,
  type JsonFileWording,
} from '../../src/core/json-file.js';

class TestFileError extends Error {
  constructor(
    readonly file: string,
    readonly jsonPath: string,
    readonly detail: string,
  ) {
    super(`${file}|${jsonPath}|${detail}`);
  }
}

const wording: JsonFileWording = {
  error: (file, jsonPath, detail) => new TestFileError(file, jsonPath, detail),
  detail: (issue) =>
    issue.code === 'too_small' ? 'too few' : zodExpectation(issue.message, ['Invalid input']),
};

const Schema = z.object({ items: z.array(z.object({ n: z.number() })).min(1) });

function failure(text: string): TestFileError {
  try {
    parseJsonFileWith('f.json', text, Schema, wording);
  } catch (err) {
    return err as TestFileError;
  }
  throw new Error('expected a failure');
}

describe('parseJsonFileWith', () => {
  it('returns the parsed value and accepts a leading BOM', () => {
    expect(parseJsonFileWith('f.json', '\uFEFF{"items":[{"n":1}]}', Schema, wording)).toEqual({
      items: [{ n: 1 }],
    });
  });

  it("reports invalid JSON for the whole file through the module's error", () => {
    const err = failure('{"items": [');
    expect(err).toBeInstanceOf(TestFileError);
    expect(err.jsonPath).toBe('');
    expect(err.detail).toMatch(/^not valid JSON \(.+\)$/);
  });

  it("names the first issue's JSON path and words it with the module's detail", () => {
    expect(failure('{"items":[{"n":1},{"n":"two"}]}')).toMatchObject({
      file: 'f.json',
      jsonPath: 'items[1].n',
      detail: 'expected number, received string',
    });
    expect(failure('{"items":[]}')).toMatchObject({ jsonPath: 'items', detail: 'too few' });
  });
});

describe('zodExpectation', () => {
  it('keeps the half after a listed heading and passes other messages through', () => {
    expect(zodExpectation('Too big: expected number to be <=64', ['Too big'])).toBe(
      'expected number to be <=64',
    );
    expect(zodExpectation('Too big: expected number to be <=64', ['Invalid input'])).toBe(
      'Too big: expected number to be <=64',
    );
    expect(zodExpectation('model id "x": expected provider:model', ['Invalid input'])).toBe(
      'model id "x": expected provider:model',
    );
  });

  it('formats mixed paths', () => {
    expect(formatJsonPath(['a', 0, 'b', 2])).toBe('a[0].b[2]');
  });
});
