/**
 * `--checkpoint` on the command line: the original's prompt after each critical review, answered with
 * one line — on a terminal, typed; from a pipe or file, read line by line (a script can answer `skip 2`).
 * When the input has ended with no answer, the answer is `wait`: the run pauses with its state saved, and
 * the next `skillclimb review` asks again.
 */
import { createInterface, type Interface } from 'node:readline';
import { parseCheckpointAnswer } from '../core/review/checkpoint.js';
import { formatScore, EFFORT_WORDS } from '../core/review/log.js';
import type { Checkpoint, CheckpointQuestion } from '../ports/review.js';

export function checkpointText(q: CheckpointQuestion): string {
  const weaknesses = q.weaknesses.map((w) => `${w.rank}. [${w.severity}] ${w.title}`);
  const fixes = q.weaknesses.map((w) => `${w.rank}. ${w.minimum_fix} (${EFFORT_WORDS[w.effort]})`);
  return [
    `📋 Round ${q.round}/${q.maxRounds} review complete.`,
    '',
    `Score: ${formatScore(q.score)} — ${q.verdict}`,
    'Top weaknesses:',
    ...(weaknesses.length ? weaknesses : ['(none)']),
    '',
    'Suggested fixes:',
    ...(fixes.length ? fixes : ['(none)']),
    '',
    'Options:',
    '- Reply "go" or "continue" → implement all suggested fixes',
    '- Reply with custom instructions → implement your modifications instead',
    '- Reply "skip 2" → skip fix #2, implement the rest',
    '- Reply "stop" → end the loop, document current state',
    '',
  ].join('\n');
}

export interface LineCheckpoint extends Checkpoint {
  /** Releases the input (a readline on stdin keeps the process alive). */
  close(): void;
}

/** A checkpoint over a readable stream of answer lines; `write` shows the question. */
export function createLineCheckpoint(
  input: NodeJS.ReadableStream & { isTTY?: boolean },
  write: (text: string) => void,
): LineCheckpoint {
  let rl: Interface | undefined;
  let lines: AsyncIterator<string> | undefined;
  let ended = false;
  const open = () => {
    rl ??= createInterface({ input, terminal: false });
    lines ??= rl[Symbol.asyncIterator]();
    return lines;
  };
  return {
    async ask(question, signal) {
      write(checkpointText(question));
      if (ended) return { kind: 'wait' };
      if (input.isTTY) write('Your answer (go, skip N, stop, or instructions for the fix):');
      const next = open().next();
      const aborted = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason as Error);
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
      const result = await Promise.race([next, aborted]);
      if (result.done) {
        ended = true;
        write('(no answer: the input has ended; the run waits at this checkpoint)\n');
        return { kind: 'wait' };
      }
      return parseCheckpointAnswer(result.value);
    },
    close() {
      rl?.close();
    },
  };
}
