/** Types of quality-responder.mjs, for the tests that import it (test/scripts/quality-world.test.ts). */
import type { World } from './quality-world.mjs';

export interface ModelCall {
  system: string;
  text: string;
}
export type Reply = { text: string; usage: object } | { json: unknown; usage: object };
export function roleOfPrompt(system: string): 'editor' | 'grader' | 'render';
export function createQualityResponder(
  world: World,
  options: { p: number; sticky?: number; goodEdit?: number; harmfulEdit?: number },
): {
  respond: (call: ModelCall) => Reply;
  calls: { editor: number; render: number; grader: number };
  edits: Map<string, { skill: string; kind: string; trueDelta: number }>;
};
