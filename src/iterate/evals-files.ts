/**
 * Reads a skill's eval files from disk, in either shape of `evals/evals.json` (docs/how-it-works.md
 * § Scoring): core/evals.ts parses the original's pair of files, core/agent-skills-evals.ts the Agent
 * Skills format's one file, and both give the same SkillEvals, so no caller knows which it was.
 */
import path from 'node:path';
import {
  EvalsFileError,
  parseRequiredSections,
  parseSkillEvals,
  structuralOnlyEvals,
  type SkillEvals,
} from '../core/iterate/evals.js';
import {
  agentSkillsEvals,
  inputFilesOf,
  readEvalsShape,
  type AgentSkillsEvals,
  type EvalsShape,
} from '../core/iterate/agent-skills-evals.js';
import { formatJsonPath } from '../core/json-file.js';
import {
  EVALS_FILE,
  REQUIRED_SECTIONS_FILE,
  SCENARIOS_FILE,
  evalsDirOf,
} from '../core/iterate/skill-layout.js';
import { NotRegularFileError, inspectFile, readRegularFile } from './regular-file.js';
import { linkOnTheWay } from './symlinks.js';

/** No eval file is anywhere near this; a bigger one is a mistake (or an attack), not a test suite. */
export const EVALS_MAX_BYTES = 16 * 1024 * 1024;
/** An input file of the Agent Skills format goes into a prompt as text: past this it is not one. */
export const INPUT_FILE_MAX_BYTES = 1024 * 1024;

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

async function hasFile(dir: string, name: string): Promise<boolean> {
  return (await inspectFile(path.join(dir, name))) === 'file';
}

/**
 * The shape of a skill's `evals/evals.json`, by its content: 'missing' when there is none. A file in
 * neither shape (or not JSON, or an Agent Skills file that does not validate) is the EvalsFileError that
 * names it and what was expected.
 */
export async function evalsShapeOf(skillDir: string): Promise<EvalsShape | { format: 'missing' }> {
  const dir = evalsDirOf(skillDir);
  const text = await readEvalsFile(dir, EVALS_FILE);
  if (text === undefined) return { format: 'missing' };
  return readEvalsShape(text, await hasFile(dir, SCENARIOS_FILE));
}

/** Text a render can read; a file with NUL bytes or invalid UTF-8 (decoded as U+FFFD) is named, not pasted. */
function asPromptText(file: string, text: string): string {
  if (!text.includes('\u0000') && !text.includes('\uFFFD')) return text;
  return `(binary file ${file}: not shown, the render reads text only)`;
}

/**
 * The input files an Agent Skills evals.json names, read from the skill folder: regular files only,
 * never through a link (the one link rule, docs/how-it-works.md § Untrusted text and secrets), at most
 * INPUT_FILE_MAX_BYTES each. A missing or refused file is an EvalsFileError at its JSON path.
 */
async function readInputFiles(skillDir: string, file: AgentSkillsEvals): Promise<Map<string, string>> {
  const inputs = new Map<string, string>();
  const where = (rel: string): string => {
    for (const [i, entry] of file.evals.entries()) {
      const j = entry.files?.indexOf(rel) ?? -1;
      if (j >= 0) return formatJsonPath(['evals', i, 'files', j]);
    }
    return 'evals';
  };
  for (const rel of inputFilesOf(file)) {
    // Validated relative and inside the folder (core/agent-skills-evals.ts); `a/../b` is read as `b`.
    const normal = path.posix.normalize(rel);
    const full = path.join(skillDir, ...normal.split('/'));
    const linked = await linkOnTheWay(skillDir, normal);
    if (linked !== undefined) {
      throw new EvalsFileError(
        EVALS_FILE,
        where(rel),
        `${rel}: a symbolic link on the way; input files are never read through a link`,
      );
    }
    let text: string | undefined;
    try {
      text = await readRegularFile(full, INPUT_FILE_MAX_BYTES);
    } catch (err) {
      if (err instanceof NotRegularFileError) {
        throw new EvalsFileError(EVALS_FILE, where(rel), `${rel} ${err.detail}`);
      }
      throw err;
    }
    if (text === undefined) {
      throw new EvalsFileError(EVALS_FILE, where(rel), `${rel}: file not found in the skill folder`);
    }
    inputs.set(rel, asPromptText(rel, text));
  }
  return inputs;
}

/**
 * Loads and cross-validates the eval files of one skill folder (`<skill>/evals/…`), in either shape: the
 * original's evals.json with test_scenarios.json, or the Agent Skills format's evals.json alone.
 */
export async function loadSkillEvals(skillDir: string): Promise<SkillEvals> {
  const dir = evalsDirOf(skillDir);
  const evalsText = await readEvalsFile(dir, EVALS_FILE);
  const scenariosText = await readEvalsFile(dir, SCENARIOS_FILE);
  const requiredSections = await readEvalsFile(dir, REQUIRED_SECTIONS_FILE);
  if (evalsText !== undefined) {
    const shape = readEvalsShape(evalsText, scenariosText !== undefined);
    if (shape.format === 'agent-skills') {
      const inputs = await readInputFiles(skillDir, shape.file);
      return agentSkillsEvals(shape.file, inputs, parseRequiredSections(requiredSections));
    }
  }
  return parseSkillEvals({ evals: evalsText, scenarios: scenariosText, requiredSections });
}

/** What structural scoring reads of a skill's eval files: only `required_sections.json`, when there is one. */
export async function loadStructuralEvals(skillDir: string): Promise<SkillEvals> {
  return structuralOnlyEvals(await readEvalsFile(evalsDirOf(skillDir), REQUIRED_SECTIONS_FILE));
}
