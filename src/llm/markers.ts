/**
 * Per-call random markers for prompts. Core builds prompts from the marker it is given (core draws no
 * randomness); the model layer draws a fresh one for every call, after the quoted output was written, so a
 * render or a pull request cannot know the line that ends its block (docs/how-it-works.md § Untrusted text
 * and secrets).
 */
import { randomUUID } from 'node:crypto';

/** A fresh random marker for one model call. */
export function freshMarker(): string {
  return randomUUID();
}
