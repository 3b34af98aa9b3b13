/** Step A's inputs for the editor (docs/how-it-works.md § The hill-climb loop). */
import type { EvalsFile } from '../core/iterate/evals.js';
import { RADICAL_AFTER_REVERTS, type KeptState } from '../core/iterate/hill-climb.js';
import type { FailedAssertion } from '../core/iterate/score-types.js';
import type { EditorInput } from '../ports/models.js';

/** How much of the failing render the editor sees (the prompt builder caps it again). */
const RENDER_EXCERPT_CHARS = 1500;

/** Every assertion's statement by id (ids are unique across categories), for the passing-pairs block. */
export function assertionStatements(evals: EvalsFile): Record<string, string> {
  const statements: Record<string, string> = {};
  for (const category of evals.categories)
    for (const assertion of category.evals) statements[String(assertion.id)] = assertion.statement;
  return statements;
}

/**
 * Step A's inputs, from the state of the text being edited (the branch tip): its failures and passing
 * pairs, the render behind its top failure, and the edits already reverted in this run.
 */
export function buildEditorInput(
  skillName: string,
  state: Pick<KeptState, 'text' | 'structural' | 'absolute' | 'confirmedAllPass' | 'renders'>,
  consecutiveReverts: number,
  revertedDescriptions: readonly string[],
  statements?: Readonly<Record<string, string>>,
): EditorInput {
  const radical = consecutiveReverts >= RADICAL_AFTER_REVERTS;
  const absolute = state.absolute;
  const base = {
    skillName,
    skillMd: state.text,
    radical,
    revertedDescriptions: [...revertedDescriptions],
    structural: state.structural,
    ...(statements === undefined ? {} : { statements }),
  };
  if (absolute !== null && absolute.failed_assertions.length === 0 && state.confirmedAllPass) {
    return {
      ...base,
      mode: 'simplification',
      topFailure: undefined,
      otherFailures: [],
      passingPairs: absolute.passing_pairs,
      failingRenderExcerpt: undefined,
    };
  }
  // Targeted: on the top failure when there is an absolute result; without one (`--mode structural`, or
  // no render/grader model) there is no failure to anchor on: topFailure stays undefined and the editor
  // aims at the weakest structural metric (the offline editor by itself, a real one through the
  // structural-target prompt of core/iterate/editor-prompt.ts).
  const [top, ...others]: Array<FailedAssertion | undefined> = absolute?.failed_assertions ?? [];
  const render = top ? state.renders.get(top.scenario_id) : undefined;
  return {
    ...base,
    mode: 'targeted',
    topFailure: top,
    otherFailures: others.filter((f): f is FailedAssertion => f !== undefined),
    passingPairs: absolute?.passing_pairs ?? [],
    failingRenderExcerpt: render === undefined ? undefined : render.slice(0, RENDER_EXCERPT_CHARS),
  };
}
