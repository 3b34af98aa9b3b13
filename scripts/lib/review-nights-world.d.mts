/** Types of review-nights-world.mjs, for the tests that import it (test/scripts/review-nights-world.test.ts). */
export interface Level {
  pFalse: number;
  r: number;
  repeat: number;
  trigger: number;
  defect: number;
}
export interface ReviewClass {
  id: string;
  kind: 'false' | 'real';
  severity: 'critical' | 'major' | 'minor';
  title: string;
  files: string[];
  lines: string[];
  instruction?: string;
}
export interface Item {
  c: ReviewClass;
  file: string;
}
export interface Pull {
  stream: string;
  index: number;
  items: Item[];
  diff: string;
}
export interface FeedbackEval {
  id: number;
  prompt: string;
  expected_output: string;
  files: string[];
  assertions: string[];
  skillclimb: { holdout?: true; feedback: { kind: 'dismissed' | 'accepted'; title: string; file: string } };
}
export const DEFAULTS: Level;
export const FALSE_CLASSES: ReviewClass[];
export const REAL_CLASSES: ReviewClass[];
export const CLASSES: ReviewClass[];
export const HARMFUL: Array<{ id: string; text: string; silences: (c: ReviewClass) => boolean }>;
export const NEUTRAL: string[];
export function baselineSkill(): string;
export function skillText(rules: string[]): string;
export function rulesOf(skillMd: string): string[];
export function silenced(rules: string[], c: ReviewClass): boolean;
export function hunkOf(c: ReviewClass, file: string): string;
export function itemsIn(diff: string): Item[];
export function review(
  rules: string[],
  diff: string,
  draw: (c: ReviewClass, file: string) => number,
  level?: Pick<Level, 'pFalse' | 'r'>,
): Item[];
export function reviewText(found: Item[]): string;
export function reports(text: string, c: ReviewClass, file: string): boolean;
export function makePull(seed: string, stream: string, index: number, level?: Level): Pull;
export function assertionOf(kind: 'dismissed' | 'accepted', c: ReviewClass, file: string): string;
export function parseAssertion(
  text: string,
): { kind: 'dismissed' | 'accepted'; c: ReviewClass; file: string } | undefined;
export function appendFeedback(evals: FeedbackEval[], pull: Pull, found: Item[], pr: number): number;
