/** Reads a skill's eval files from disk; core/evals.ts parses and cross-validates them. */
import path from 'node:path';
import {
  EvalsFileError,
  parseSkillEvals,
  structuralOnlyEvals,
  type SkillEvals,
} from '../core/iterate/evals.js';
import {
  EVALS_FILE,
  REQUIRED_SECTIONS_FILE,
  SCENARIOS_FILE,
  evalsDirOf,
} from '../core/iterate/skill-layout.js';
import { NotRegularFileError, readRegularFile } from './regular-file.js';

/** No eval file is anywhere near this; a bigger one is a mistake (or an attack), not a test suite. */
export const EVALS_MAX_BYTES = 16 * 1024 * 1024;

/**
 * One eval file's text, undefined when it does not exist. A directory, FIFO, socket, dangling link or loop
 * in its place is an EvalsFileError naming the file (never EISDIR, never a read that blocks).
 */
async function readEvalsFile(dir: string, name: string): Promise<string | undefined> {
  try {
    return await readRegularFile(path.join(dir, name), EVALS_MAX_BYTES);
  } catch (err) {
    if (err instanceof NotRegularFileError) throw new EvalsFileError(name, '', err.detail);
    throw err;
  }
}

/** Loads and cross-validates the eval files of one skill folder (`<skill>/evals/…`). */
export async function loadSkillEvals(skillDir: string): Promise<SkillEvals> {
  const dir = evalsDirOf(skillDir);
  return parseSkillEvals({
    evals: await readEvalsFile(dir, EVALS_FILE),
    scenarios: await readEvalsFile(dir, SCENARIOS_FILE),
    requiredSections: await readEvalsFile(dir, REQUIRED_SECTIONS_FILE),
  });
}

/** What structural scoring reads of a skill's eval files: only `required_sections.json`, when there is one. */
export async function loadStructuralEvals(skillDir: string): Promise<SkillEvals> {
  return structuralOnlyEvals(await readEvalsFile(evalsDirOf(skillDir), REQUIRED_SECTIONS_FILE));
}
