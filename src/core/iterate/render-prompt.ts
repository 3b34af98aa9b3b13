/** The render prompt: the SKILL.md as the system prompt, the scenario as the user message (docs/how-it-works.md § Scoring). */
import type { Scenario } from './evals.js';
import { fenceFor } from '../text/neutralise.js';

export const AMBIGUOUS_RULE =
  'If you cannot do the task from these instructions, answer with one line `AMBIGUOUS: <reason>` and nothing else.';

export interface RenderPrompt {
  /** Exactly the SKILL.md (system prompt = the SKILL.md, docs/how-it-works.md § Scoring); the cacheable prefix. */
  system: string;
  user: string;
}

/** Render: the SKILL.md as the system prompt; the scenario's context, its files, and the AMBIGUOUS rule. */
export function buildRenderPrompt(skillMd: string, scenario: Scenario): RenderPrompt {
  const parts = [scenario.context];
  for (const [name, content] of Object.entries(scenario.files ?? {})) {
    const fence = fenceFor(content);
    parts.push(`File \`${name}\`:\n${fence}\n${content}\n${fence}`);
  }
  parts.push(AMBIGUOUS_RULE);
  return { system: skillMd, user: parts.join('\n\n') };
}
