/** Reads a skill's eval files from disk; core/evals.ts parses and cross-validates them. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSkillEvals, structuralOnlyEvals, type SkillEvals } from '../core/evals.js';
import { EVALS_FILE, REQUIRED_SECTIONS_FILE, SCENARIOS_FILE, evalsDirOf } from '../core/skill-layout.js';

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Loads and cross-validates the eval files of one skill folder (`<skill>/evals/…`). */
export async function loadSkillEvals(skillDir: string): Promise<SkillEvals> {
  const dir = evalsDirOf(skillDir);
  return parseSkillEvals({
    evals: await readIfExists(path.join(dir, EVALS_FILE)),
    scenarios: await readIfExists(path.join(dir, SCENARIOS_FILE)),
    requiredSections: await readIfExists(path.join(dir, REQUIRED_SECTIONS_FILE)),
  });
}

/** What structural scoring reads of a skill's eval files: only `required_sections.json`, when there is one. */
export async function loadStructuralEvals(skillDir: string): Promise<SkillEvals> {
  return structuralOnlyEvals(await readIfExists(path.join(evalsDirOf(skillDir), REQUIRED_SECTIONS_FILE)));
}
