// CONTRACT STUB — owned by the provider helper.
import { Command } from 'commander';
import type { CliIo } from '../io.js';

/** `skillclimb doctor`: checks each configured model role. */
export function doctorCommand(_io: CliIo): Command {
  return new Command('doctor').description('Check the configured models (not implemented yet)');
}
