/**
 * The nightly engine improves the reviewer like any other skill (issue 31 item 3): the reviewer skill at its
 * default folder `.github/skills/review-loop-reviewer/` is found by the default skills setting, each eval
 * written from review feedback (`skillclimb.feedback`) is rendered with the skill as the system prompt and
 * the diff hunk as the input, graded on its assertion, kept only through the confirmation, and shipped as
 * ONE pull request whose body lists the dismissed findings it stops raising and the accepted findings it
 * still catches. Models are Anthropic's API served by nock (the real provider code runs); GitHub is a
 * recording stand-in on the loopback; git is real (a bare origin).
 */
import { describe, expect, it } from 'vitest';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import type { ActionIo } from '../../src/action/io.js';
import { runPipeline } from '../../src/action/main.js';
import { DEFAULT_REVIEWER_SKILL_DIR } from '../../src/core/reviewer-skill.js';
import { git, makeRemote, nightContext, recordingLog } from '../helpers/github-fixtures.js';
import { serveSkillModels } from '../helpers/nock-skill-models.js';
import { useRecordingGitHub } from '../helpers/recording-github-hooks.js';

const NOW = new Date('2026-06-02T03:00:00Z');
const { github, apiUrl } = useRecordingGitHub();

const DIR = DEFAULT_REVIEWER_SKILL_DIR;

const REVIEWER_SKILL = `---
name: review-loop-reviewer
description: Review a pull request's change as a senior engineer and report its defects.
---
# Reviewer

Start from the assumption that the change is broken. Report each defect with a title, the file and the line.
`;

function hunk(file: string, line: string): string {
  return `\`\`\`diff\n--- a/${file}\n+++ b/${file}\n@@ -1,3 +1,4 @@\n ${'context'}\n+${line}\n\`\`\`\n\nReview this change.`;
}

interface FeedbackEval {
  id: number;
  kind: 'dismissed' | 'accepted';
  title: string;
  file: string;
  pr: number;
  line: string;
  holdout?: boolean;
}

function feedbackEvals(evals: readonly FeedbackEval[]): string {
  return `${JSON.stringify(
    {
      skill_name: 'review-loop-reviewer',
      evals: evals.map((e) => ({
        id: e.id,
        prompt: hunk(e.file, e.line),
        assertions: [
          e.kind === 'dismissed'
            ? `The review does not report: ${e.title} in ${e.file}`
            : `The review reports: ${e.title} in ${e.file}`,
        ],
        skillclimb: {
          ...(e.holdout ? { holdout: true } : {}),
          feedback: { kind: e.kind, title: e.title, file: e.file, pr: e.pr, by: 'maintainer' },
        },
      })),
    },
    null,
    2,
  )}\n`;
}

const EVALS: FeedbackEval[] = [
  {
    id: 1,
    kind: 'dismissed',
    title: 'Unused import @octocat | see #3',
    file: 'src/vendor/lib.js',
    pr: 12,
    line: "import fs from 'fs';",
  },
  {
    id: 2,
    kind: 'dismissed',
    title: 'Missing null check',
    file: 'src/api.ts',
    pr: 14,
    line: 'return user.name;',
  },
  {
    id: 3,
    kind: 'accepted',
    title: 'SQL built from user input',
    file: 'src/db.ts',
    pr: 15,
    line: 'db.query(`SELECT * FROM t WHERE id = ${id}`);',
  },
  {
    id: 4,
    kind: 'accepted',
    title: 'Off-by-one in the last page',
    file: 'src/page.ts',
    pr: 16,
    line: 'const last = Math.floor(total / size);',
    holdout: true,
  },
];

function io(): ActionIo & { summaries: string[] } {
  const summaries: string[] = [];
  return {
    log: recordingLog(),
    summaries,
    startGroup: () => undefined,
    endGroup: () => undefined,
    writeSummary: async (markdown) => void summaries.push(markdown),
    now: () => NOW,
  };
}

/** The rows of the Markdown table under `heading` in `body` (cells trimmed), up to the first blank line. */
function tableRows(body: string, heading: string): string[][] {
  const start = body.indexOf(`**${heading}**`);
  if (start < 0) return [];
  const lines = body.slice(start).split('\n').slice(2);
  const rows: string[][] = [];
  for (const line of lines) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
  }
  return rows.slice(2);
}

describe('a night over the reviewer skill with feedback evals', () => {
  it('is found by default, scored like any skill, and ships one PR with the findings it stops and still catches', async () => {
    const { origin, checkout } = await makeRemote(
      {
        [`${DIR}/SKILL.md`]: REVIEWER_SKILL,
        [`${DIR}/evals/evals.json`]: feedbackEvals(EVALS),
        '.gitignore': 'results.tsv\n',
      },
      { checkout: 'actions' },
    );
    // Each render names its text (the skill as it was, the edited one, or none: the uplift), its eval and
    // its draw; the grader's verdicts are a table over them. The baseline raises both dismissed findings
    // and catches the SQL finding on every other draw (so it is noisy and the confirmation runs); the edit
    // stops the vendored file's finding, still raises the null check, and catches both accepted findings.
    const counts = new Map<string, number>();
    const table: Record<string, Record<string, number[][]>> = {
      base: { e1: [[]], e2: [[]], e3: [[3], [], [3], [], [3], []], e4: [[4]] },
      improved: { e1: [[1]], e2: [[]], e3: [[3]], e4: [[4]] },
      none: { e1: [[]], e2: [[]], e3: [[]], e4: [[]] },
    };
    const scenarioOf = (user: string) => {
      const e = EVALS.find((x) => user.includes(`+++ b/${x.file}`));
      if (!e) throw new Error(`a render without a feedback eval's hunk: ${user.slice(0, 200)}`);
      return `e${e.id}`;
    };
    const bodies = serveSkillModels({
      render: ({ system, user }) => {
        const variant = !system.includes('# Reviewer')
          ? 'none'
          : system.includes('vendored')
            ? 'improved'
            : 'base';
        const key = `${variant}|${scenarioOf(user)}`;
        const k = counts.get(key) ?? 0;
        counts.set(key, k + 1);
        return `${key}|draw ${k}`;
      },
      grade: ({ text, ids }) => {
        const m = /(base|improved|none)\|(e\d)\|draw (\d+)/.exec(text);
        if (!m) throw new Error('grader call without a scripted render');
        const rows = table[m[1]!]![m[2]!]!;
        const pass = rows[Math.min(Number(m[3]), rows.length - 1)]!;
        return ids.filter((id) => pass.includes(id));
      },
      propose: () => ({
        description: 'leave vendored files alone',
        old_string: 'Report each defect with a title, the file and the line.',
        new_string:
          'Report each defect with a title, the file and the line. Do not report findings in vendored files (src/vendor/).',
      }),
    });
    // No `skills` input: the default setting finds the reviewer skill under .github/.
    const values: Partial<Record<ActionInputName, string>> = {
      'github-token': 'ghs_t',
      base: 'main',
      'anthropic-api-key': 'sk-ant-test',
      model: 'anthropic:claude-sonnet-4-5',
      'per-skill-iterations': '1',
    };

    const result = await runPipeline(
      parseInputs((name) => values[name] ?? ''),
      await nightContext(checkout, { GITHUB_API_URL: apiUrl() }),
      io(),
    );

    expect(result.failure).toBeUndefined();
    // Rendered like any skill: the SKILL.md is the system prompt, the eval's diff hunk the input.
    const first = bodies.render.find((r) => r.user.includes('+++ b/src/vendor/lib.js'));
    expect(first?.system).toBe(REVIEWER_SKILL);
    expect(first?.user).toContain("+import fs from 'fs';");
    expect(first?.user).toContain('Review this change.');
    // The holdout's hunk never reached the editor.
    expect(bodies.editor.length).toBeGreaterThan(0);
    for (const body of bodies.editor) expect(body).not.toContain('src/page.ts');
    // One branch, one PR, changing the reviewer's SKILL.md alone.
    expect(git(origin, 'diff', '--name-only', 'main', 'skill-iterate/review-loop-reviewer').trim()).toBe(
      `${DIR}/SKILL.md`,
    );
    const created = github.requests.filter(
      (r) => r.method === 'POST' && r.url === '/repos/acme/skills/pulls',
    );
    expect(created).toHaveLength(1);
    expect(created[0]!.body?.head).toBe('skill-iterate/review-loop-reviewer');
    const body = String(created[0]!.body?.body);

    // The evidence section, its counts from the confirmation.
    expect(body).toContain('### Review findings');
    expect(body).toContain("counts are from the draws the ship gate's confirmation compared");
    const stops = tableRows(body, 'Dismissed findings it stops raising');
    expect(stops.map((r) => r.slice(0, 3))).toEqual([
      // The title is inert: no mention, no reference, no extra column.
      ['Unused import @\u200Doctocat &#124; see #\u200D3', 'src/vendor/lib.js', 'PR 12'],
    ]);
    expect(stops[0]![3]).toMatch(/^0 of 3 → (\d+) of \1$/);
    const catches = tableRows(body, 'Accepted findings it still catches');
    expect(catches.map((r) => r.slice(0, 3))).toEqual([
      ['SQL built from user input', 'src/db.ts', 'PR 15'],
      ['Off-by-one in the last page _(holdout)_', 'src/page.ts', 'PR 16'],
    ]);
    expect(catches[0]![3]).toMatch(/^2 of 3 → (\d+) of \1$/);
    expect(catches[1]![3]).toBe('3 of 3 → 3 of 3');
    // The dismissed finding it still raises is said plainly, with its counts.
    expect(body).toMatch(
      /It still raises 1 finding the team dismissed: Missing null check \(src\/api\.ts, PR 14: 0 of 3 → 0 of \d+\)\./,
    );
    expect(body).not.toContain('It misses');
    expect(body).not.toContain('"feedback"');
  }, 120_000);
});
