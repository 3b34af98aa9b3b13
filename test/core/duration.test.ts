import { describe, expect, it } from 'vitest';
import { DurationError, formatDuration, parseDuration } from '../../src/core/duration.js';

describe('parseDuration', () => {
  it.each([
    ['1h', 3_600_000],
    ['30m', 1_800_000],
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['2h0m5s', 7_205_000],
    [' 45m ', 2_700_000],
  ])('%j is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '1', '1x', '1.5h', '30m1h', '1 h', '-1h', 'h', '1hh'])(
    'rejects %j with a message showing the forms',
    (text) => {
      expect(() => parseDuration(text)).toThrow(DurationError);
      expect(() => parseDuration(text)).toThrow(
        /is not a duration; use hours, minutes and seconds like 1h, 30m, 90s or 1h30m/,
      );
    },
  );

  it('rejects a zero duration', () => {
    expect(() => parseDuration('0m')).toThrow('"0m" is zero');
  });
});

describe('formatDuration', () => {
  it.each([
    [3_600_000, '1h'],
    [5_400_000, '1h30m'],
    [90_000, '1m30s'],
    [7_205_000, '2h5s'],
    [0, '0s'],
  ])('%i ms is %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('round-trips what it prints', () => {
    for (const ms of [1000, 61_000, 3_661_000, 86_400_000])
      expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});
