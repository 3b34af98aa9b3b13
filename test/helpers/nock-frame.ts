/** HTTP under nock for a whole test file: no real network, and every test starts with no mocks left over. */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

type Reset = () => void | Promise<void>;

function nockFrame(requireAllUsed: boolean, reset: Reset | undefined): void {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(async () => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    await reset?.();
    if (requireAllUsed) expect(pending).toEqual([]);
  });
}

/**
 * Registers the file's hooks; a test fails when a mock it set up was never called. `reset` runs after
 * each test once the mocks are cleared and before that check, so a failed check still leaves a clean slate.
 */
export function strictNock(reset?: Reset): void {
  nockFrame(true, reset);
}

/** Registers the file's hooks for tests that check their scopes themselves (`scope.isDone()`). */
export function looseNock(reset?: Reset): void {
  nockFrame(false, reset);
}
