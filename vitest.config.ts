import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: these are correctness tests on real git and real processes, never timing targets (those are
    // benchmarks); on a loaded 2-core CI machine a pipeline test can take well over 30 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    setupFiles: ['test/setup/no-network.ts'],
    // Real git runs in the tests; a fresh machine may have no global identity.
    env: {
      GIT_AUTHOR_NAME: 'skillclimb test',
      GIT_AUTHOR_EMAIL: 'test@skillclimb.invalid',
      GIT_COMMITTER_NAME: 'skillclimb test',
      GIT_COMMITTER_EMAIL: 'test@skillclimb.invalid',
    },
  },
});
