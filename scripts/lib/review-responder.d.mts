/** Types of review-responder.mjs, for the tests that import it (test/scripts/review-world.test.ts). */
export interface Level {
  r: number;
  carried: number;
  invent: number;
  stick: number;
  flip: number;
  checkKeep: number;
  checkFalse: number;
  fixRate: number;
  breakRate: number;
}
export function filesOf(text: string): Record<string, string>;
export function blockOf(text: string, label: string): string;
export function numberedTitles(block: string): Array<{ n: number; title: string }>;
export function createReviewResponder(
  seed: string,
  level: Level,
): {
  stats: { reviews: number; checks: number; fixes: number; other: number };
  respond(call: { system: string; text: string }): { json: unknown } | { status: number; body: unknown };
};
