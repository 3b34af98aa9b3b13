import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
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
