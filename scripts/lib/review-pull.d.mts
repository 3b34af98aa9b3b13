/** Types of review-pull.mjs, for the tests that import it (test/scripts/review-world.test.ts). */
import type { ReviewTarget } from '../../src/ports/review.js';

export function fileDiff(path: string, before: string | undefined, after: string | undefined): string;
export function createPullTarget(options: {
  number: number;
  base: Record<string, string>;
  head: Record<string, string>;
  claims: (files: Record<string, string>) => string;
}): { target: ReviewTarget; files(sha: string): Record<string, string>; head(): string };
