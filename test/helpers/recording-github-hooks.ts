/**
 * One recording GitHub stand-in for a whole test file (test/helpers/github-fixtures.ts `RecordingGitHub`):
 * started before the file's tests, its records and nock's interceptors cleared after each, stopped (and the
 * temporary folders removed) after all. Call at the top of the file.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanupTempDirs, RecordingGitHub } from './github-fixtures.js';

export function useRecordingGitHub(): { github: RecordingGitHub; apiUrl: () => string } {
  const github = new RecordingGitHub();
  let url: string | undefined;
  beforeAll(async () => {
    url = await github.start();
  });
  afterAll(async () => {
    await github.stop();
    await cleanupTempDirs();
  });
  afterEach(() => {
    nock.cleanAll();
    github.reset();
  });
  return {
    github,
    apiUrl: () => {
      if (url === undefined)
        throw new Error(
          'the recording GitHub has not started (call useRecordingGitHub at the top of the file)',
        );
      return url;
    },
  };
}
