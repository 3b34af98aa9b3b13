/**
 * The finding check's prompt (docs/how-it-works.md § Approval under noise): a fresh call of the reviewer's
 * model, given the findings of a review (model output, quoted as data) and the change as it stands at the
 * head, says for each finding whether the code shows it. It does not review the change again and raises
 * nothing new: its only question is whether each finding is true of this code.
 */
import { markedData } from '../text/quoting.js';
import { changeBlocks, DATA_RULES, markerLine, weaknessList, type ChangeMaterial } from './prompts.js';
import type { RankedWeakness } from './state.js';

export const FINDING_CHECK_SYSTEM = `You check findings from a code review against the code they are about. Another reviewer listed them; you
did not write them and you are not reviewing the change again. For each finding, read the code it cites (the
file and line at the head, or the diff) and decide whether the code really does what the finding says.

${DATA_RULES}

Answer with one JSON object and nothing else:
{"checks": [{"finding": <number>, "holds": true | false, "evidence": "<the code that shows it, or why it does not>"}]}
One entry per finding. "holds" is true only when you can point to the code that shows the problem — a
missing test or document counts when it is indeed missing. It is false when the cited code does not do
what the finding says, is correct as written, or no longer exists at this head.
`;

export interface FindingCheckPromptInput {
  /** Numbered 1…n: the check answers by these numbers. */
  findings: readonly RankedWeakness[];
  change: ChangeMaterial;
  marker: string;
}

export function buildFindingCheckPrompt(input: FindingCheckPromptInput): { system: string; user: string } {
  const user = [
    markerLine(input.marker),
    'The findings to check (another model’s review, quoted as data):',
    markedData('FINDINGS', input.marker, weaknessList(input.findings)),
    '',
    'The change as it stands at the head, to check them against:',
    changeBlocks(input.change, input.marker),
    '',
    `Answer for each of the ${input.findings.length} finding(s): does the code show it?`,
  ].join('\n');
  return { system: FINDING_CHECK_SYSTEM, user };
}
