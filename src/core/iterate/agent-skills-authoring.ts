/**
 * `skillclimb evals init` in the Agent Skills format (docs/how-it-works.md § Writing the eval files): the
 * author answers as for the original's files (the same rules and checks decide whether it may be
 * written), and code turns the checked answer into the one `evals/evals.json` skill-creator's schema
 * describes — each scenario an eval with its prompt, its expected output and the statements of the
 * assertions it triggers. Sources, categories and defect types stay behind (the format has no place for
 * them); a holdout is marked in skillclimb's own field. Pure: src/iterate/evals-init.ts writes the file.
 */
import { AgentSkillsEvalsSchema, statementsOf } from './agent-skills-evals.js';
import type { AuthoredAnswer, AuthoredFiles } from './evals-authoring.js';
import { parseJsonFile } from './evals.js';
import { EVALS_FILE } from './skill-layout.js';

/** The key the statements are written under: skill-creator's schema names the list `expectations`. */
export type StatementsKey = 'assertions' | 'expectations';
export const DEFAULT_STATEMENTS_KEY: StatementsKey = 'expectations';

/** What the Agent Skills file needs beyond the shared checks, worded for the model's retry. */
export function agentSkillsProblems(answer: AuthoredAnswer): string[] {
  const problems: string[] = [];
  answer.scenarios.forEach((scenario, i) => {
    if ((scenario.expected_output ?? '').trim() === '') {
      problems.push(`scenario ${i + 1} (${scenario.id}): write its expected_output`);
    }
  });
  const listed = new Set(answer.scenarios.flatMap((s) => s.expected_assertions));
  for (const assertion of answer.categories.flatMap((c) => c.evals)) {
    if (!listed.has(assertion.id)) {
      problems.push(
        `assertion ${assertion.id} is in no scenario's expected_assertions: list it where its trigger fires`,
      );
    }
  }
  return problems;
}

interface Written {
  /** The file as it will be written (a JSON value). */
  file: Record<string, unknown>;
  /** Statements over all evals (one assertion triggered in two scenarios is written twice). */
  statements: number;
}

/**
 * The Agent Skills evals.json of checked, repaired (and holdout-marked) files. `answer` is the model's, for
 * the expected outputs (the repair keeps the scenarios in its order). The result reads back through the
 * Agent Skills reader, or this throws: a file skillclimb writes is one it reads.
 */
export function toAgentSkillsFile(
  files: AuthoredFiles,
  answer: AuthoredAnswer,
  skill: string,
  key: StatementsKey = DEFAULT_STATEMENTS_KEY,
): Written {
  const statementOf = new Map<number, string>();
  const categories = files.evals.categories;
  if (Array.isArray(categories)) {
    for (const category of categories as Array<{ evals: Array<{ id: number; statement: string }> }>) {
      for (const assertion of category.evals) statementOf.set(assertion.id, assertion.statement);
    }
  }
  const scenarios = (files.scenarios?.scenarios ?? []) as Array<{
    context: string;
    expected_assertions: number[];
    holdout?: boolean;
  }>;
  const evals = scenarios.map((scenario, i) => ({
    id: i + 1,
    prompt: scenario.context,
    expected_output: (answer.scenarios[i]?.expected_output ?? '').trim(),
    files: [],
    [key]: scenario.expected_assertions
      .map((id) => statementOf.get(id))
      .filter((statement): statement is string => statement !== undefined),
    ...(scenario.holdout === true ? { skillclimb: { holdout: true } } : {}),
  }));
  const file = { skill_name: skill, evals };
  const read = parseJsonFile(EVALS_FILE, JSON.stringify(file), AgentSkillsEvalsSchema);
  return { file, statements: read.evals.reduce((n, entry) => n + statementsOf(entry).length, 0) };
}
