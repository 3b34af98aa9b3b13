import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../src/core/keyed-lock.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedLock', () => {
  it('runs one key’s calls one after another, other keys beside them, and a failure does not block the next', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = lock.run('a', async () => {
      order.push('a1 start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('a1 end');
      throw new Error('a1 failed');
    });
    const second = lock.run('a', async () => {
      order.push('a2');
      return 2;
    });
    const other = lock.run('b', async () => {
      order.push('b1');
      return 'b';
    });
    await tick();
    expect(order).toEqual(['a1 start', 'b1']);
    releaseFirst();
    await expect(first).rejects.toThrow('a1 failed');
    await expect(second).resolves.toBe(2);
    await expect(other).resolves.toBe('b');
    expect(order).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });
});
