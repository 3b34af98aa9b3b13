// CONTRACT STUB — owned by the scoring helper.
import { Command } from 'commander';
import type { CliIo } from '../io.js';

/** `skillclimb score <skill-folder> [--mode] [--trials] [--json]`. */
export function scoreCommand(_io: CliIo): Command {
  return new Command('score').description('Score one skill once, no edits (not implemented yet)');
}
