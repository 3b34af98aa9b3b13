import type { Checkpoint, CheckpointAnswer } from '../../ports/review.js';

/**
 * The App's checkpoint: nobody is at a terminal, so the engine is told to `wait` — it saves the reviewed
 * round and returns `awaiting-checkpoint`. The person's later `/review-loop go | skip N | stop | note: <text>`
 * reaches the engine as the resume input of the next call, which applies it to the round that waited.
 */
export class CommentCheckpoint implements Checkpoint {
  async ask(): Promise<CheckpointAnswer> {
    return { kind: 'wait' };
  }
}
