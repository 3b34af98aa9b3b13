/**
 * The silencing probe of the loop's keep decision (docs/how-it-works.md § The nightly engine improves the
 * reviewer, "What an added line silences"). The accepted-findings floor (accepted-floor.ts) holds an edit
 * only to the defect classes the team has already accepted a finding of; a line that silences a class no
 * accepted finding names yet ("report only critical and major problems") passes it, and once shipped the
 * class is never reported again, so it never gets an accepted eval either: self-sealing. So before an edit
 * of a skill whose evals carry feedback records is kept, the editor's model writes up to SILENCING_PROBES
 * hunks, each holding one real defect of a kind the change could stop a reviewer from reporting; the edited
 * text renders each hunk (fresh draws, one at a time, at most seven, until `probeLook` decides: reported in
 * three, missed in five), and for the probes it misses, the kept text does the same. The edit is not kept
 * when a probe's defect is reported by the kept text and missed by the edit. Nothing is persisted:
 * the probes live for the one decision. Skills without feedback records never get here (no call).
 */
import { untilAborted } from '../../core/abortable.js';
import { messageOf } from '../../core/errors.js';
import type { Scenario, SkillEvals } from '../../core/iterate/evals.js';
import type { RaisedTally } from '../../core/iterate/feedback-evidence.js';
import {
  PROBE_DRAWS,
  changedLines,
  probeEvals,
  probeLook,
  probesOf,
  silencedNote,
} from '../../core/iterate/silencing-probe.js';
import { SILENCING_PROBES } from '../../core/iterate/silencing-probe-prompt.js';
import { ModelOutputError } from '../../core/model-answers.js';
import type { Usage } from '../../core/usage.js';
import type { LoopContext } from './context.js';
import { drawUntilDecided } from './raised-draws.js';

/**
 * The probes' draw numbers start here: past every score of the whole evals and the floors' re-checks
 * (10,000 in the loop, 20,000 at the ship gate). Each probe's scenario id is its own, so no render of
 * another eval is reused either.
 */
const PROBE_FIRST_DRAW = 30_000;

/**
 * Why the edit from `keptText` to `newText` is not kept for the real defects it silences, or undefined
 * when it silences none the probes found (or the skill's evals carry no feedback, or no model writes
 * probes). `spend` is told the probe call's and the draws' usage.
 */
export async function silencingProbe(
  loop: LoopContext,
  keptText: string,
  newText: string,
  signal: AbortSignal,
  spend: (usage: Usage) => void,
): Promise<string | undefined> {
  const { models, evals } = loop.input;
  if (!models.probeSilenced || loop.deterministic) return undefined;
  if (!evals.scenarios.some((s) => s.feedback !== undefined)) return undefined;
  const { added, removed } = changedLines(keptText, newText);
  if (added.length === 0 && removed.length === 0) return undefined;
  const accepted = [
    ...new Set(evals.scenarios.filter((s) => s.feedback?.kind === 'accepted').map((s) => s.feedback!.title)),
  ];
  let answer;
  try {
    const reply = await untilAborted(
      models.probeSilenced(
        { skillName: loop.input.skill, skillMd: keptText, added, removed, accepted },
        signal,
      ),
      signal,
    );
    spend(reply.usage);
    answer = reply.value;
  } catch (err) {
    if (!(err instanceof ModelOutputError) || signal.aborted) throw err;
    if (err.usage) spend(err.usage);
    return `what it silences is unmeasured: the silencing probe's answer was unusable (${messageOf(err)})`;
  }
  const probes = probesOf(answer, SILENCING_PROBES);
  if (probes.length === 0) return undefined;
  const probed = probeEvals(probes, evals);
  const probeOf = new Map(probed.scenarios.map((s, i) => [s.id, probes[i]!]));
  // The edit first: a probe it reports needs no draw of the kept text.
  const edit = await drawProbes(loop, newText, probed, probed.scenarios, signal, spend);
  if ('failed' in edit) return `the silencing probe's draws of the edit failed (${edit.failed})`;
  const missed = probed.scenarios.filter((s) => probeLook(edit.get(s.id)!) === 'missed');
  if (missed.length === 0) return undefined;
  // The kept text on the probes the edit missed: a defect it misses too is not one the edit silenced.
  const kept = await drawProbes(loop, keptText, probed, missed, signal, spend);
  if ('failed' in kept) return `the silencing probe's draws of the kept text failed (${kept.failed})`;
  const silenced = missed
    .filter((s) => probeLook(kept.get(s.id)!) === 'reported')
    .map((s) => ({ probe: probeOf.get(s.id)!, kept: kept.get(s.id)!, edit: edit.get(s.id)! }));
  return silenced.length === 0 ? undefined : silencedNote(silenced);
}

/**
 * Fresh draws of `text` on the probes' `scenarios`, one draw at a time (at most PROBE_DRAWS) until each
 * probe is decided (`probeLook`): each probe's tally, or why the draws failed.
 */
async function drawProbes(
  loop: LoopContext,
  text: string,
  probed: SkillEvals,
  scenarios: readonly Scenario[],
  signal: AbortSignal,
  spend: (usage: Usage) => void,
): Promise<Map<string, RaisedTally> | { failed: string }> {
  return drawUntilDecided(
    loop,
    text,
    probed,
    scenarios,
    { first: PROBE_FIRST_DRAW, max: PROBE_DRAWS, look: probeLook },
    signal,
    spend,
  );
}
