import { describe, expect, it } from 'vitest';
import { extractJsonObject, stripThinkBlocks } from '../src/core/json-extract.js';

describe('extractJsonObject', () => {
  it.each<[string, string, unknown]>([
    ['a bare object', '{"a": 1}', { a: 1 }],
    ['surrounded by prose', 'Sure! {"a": 1} Hope that helps.', { a: 1 }],
    ['inside a json fence', 'Here:\n```json\n{"a": {"b": [1, 2]}}\n```\n', { a: { b: [1, 2] } }],
    ['inside a bare fence', '```\n{"a": true}\n```', { a: true }],
    ['braces inside strings', '{"s": "a } and { b", "t": "\\"}"}', { s: 'a } and { b', t: '"}' }],
    ['after a brace that opens nothing', 'Use {name} in the file. {"a": 2}', { a: 2 }],
    ['after an unclosed brace', 'oops { not closed {"a": 3}', { a: 3 }],
    ['the first of two objects', '{"a": 1}\n{"b": 2}', { a: 1 }],
    ['after a think block with JSON-looking text', '<think>maybe {"a": 0}</think>{"a": 4}', { a: 4 }],
  ])('finds %s', (_label, text, expected) => {
    expect(extractJsonObject(text)).toEqual(expected);
  });

  it.each([
    ['no braces', 'I cannot answer that.'],
    ['only an array', '[1, 2]'],
    ['invalid JSON in braces', '{a: 1}'],
    ['an unclosed object', '{"a": 1'],
    ['only a think block', '<think>{"a": 1}</think>'],
  ])('returns undefined for %s', (_label, text) => {
    expect(extractJsonObject(text)).toBeUndefined();
  });
});

describe('stripThinkBlocks', () => {
  it('drops closed blocks and an unterminated leading block', () => {
    expect(stripThinkBlocks('<think>x</think>answer')).toBe('answer');
    expect(stripThinkBlocks('<THINK>\na\n</THINK>\nA <think>b</think>B')).toBe('\nA B');
    expect(stripThinkBlocks('<think>never closed')).toBe('');
    expect(stripThinkBlocks('no thinking here')).toBe('no thinking here');
  });
});
