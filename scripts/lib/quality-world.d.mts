/** Types of quality-world.mjs, for the tests that import it (test/scripts/quality-world.test.ts). */
export interface RuleLine {
  id: string;
  text: string;
  kind: 'good' | 'harmful' | 'neutral';
  assertion?: number;
  scenarios?: string[];
}
export interface SkillWorld {
  name: string;
  index: number;
  scenarioIds: string[];
  lines: RuleLine[];
  byId: Map<string, RuleLine>;
  baselineText: string;
}
export interface World {
  seed: number | string;
  skills: SkillWorld[];
  byName: Map<string, SkillWorld>;
}
export interface Edit {
  op: 'add' | 'remove' | 'reword';
  line: RuleLine;
  into?: RuleLine;
  assertion?: number;
}
export type EditKind = 'good' | 'neutral' | 'harmful';
export const ASSERTIONS: number;
export const SCENARIOS: number;
export const CATEGORIES: ReadonlyArray<{ name: string; weight: number; ids: number[] }>;
export const ABSOLUTE_WEIGHT: number;
export const DEFAULTS: { goodEdit: number; harmfulEdit: number; sticky: number };
export function uniform(...parts: unknown[]): number;
export function prng(seed: unknown): () => number;
export function makeSkillWorld(seed: number | string, index: number): SkillWorld;
export function makeWorld(seed: number | string, skills: number): World;
export function skillText(name: string, rules: readonly RuleLine[]): string;
export function evalFiles(skill: SkillWorld): {
  evals: {
    skill: string;
    categories: Array<{ name: string; weight: number; evals: Array<{ id: number; statement: string }> }>;
  };
  scenarios: {
    skill: string;
    scenarios: Array<{
      id: string;
      name: string;
      description: string;
      context: string;
      expected_assertions: number[];
    }>;
  };
};
export function presentRules(skill: SkillWorld, text: string): string[];
export function truePass(
  skill: SkillWorld,
  rules: readonly string[],
  assertion: number,
  scenario: string,
): boolean;
export function trueWeighted(skill: SkillWorld, rules: readonly string[]): number;
export function trueGain(skill: SkillWorld, before: string, after: string): number;
export function candidateEdits(skill: SkillWorld, rules: readonly string[]): Record<EditKind, Edit[]>;
export function editProposal(
  edit: Edit,
  tag: string,
): { description: string; old_string: string; new_string: string };
export function chooseEdit(
  skill: SkillWorld,
  rules: readonly string[],
  options: { seed: number | string; k: number; target: number; goodEdit: number; harmfulEdit: number },
): { kind: EditKind; edit: Edit } | undefined;
export function applyToRules(rules: readonly string[], edit: Edit): string[];
export function renderText(scenario: string, rules: readonly string[], nonce: string): string;
export function parseRender(text: string): { rules: string[]; nonce: string };
export function gradeVerdict(input: {
  seed: number | string;
  truth: boolean;
  p: number;
  sticky: number;
  renderKey: string;
  assertion: number;
  k: number;
}): boolean;
