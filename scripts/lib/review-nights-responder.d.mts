/** Types of review-nights-responder.mjs, for the tests that import it (test/scripts/review-nights-world.test.ts). */
import type { ModelCall, Reply } from './quality-responder.mjs';
import type { Level } from './review-nights-world.mjs';

export function createNightResponder(options: {
  seed: string;
  level: Level;
  p: number;
  sticky?: number;
  goodEdit?: number;
  harmfulEdit?: number;
  probeHit?: number;
}): {
  respond: (call: ModelCall) => Reply;
  calls: { editor: number; render: number; grader: number; probe: number; probeDraws: number };
  edits: Map<string, { kind: 'good' | 'harmful' | 'neutral'; line: string }>;
};
