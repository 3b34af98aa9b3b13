/**
 * The silencing probe (docs/how-it-works.md § The nightly engine improves the reviewer, "What an added line
 * silences"): an edit of the reviewer skill the keep rule would keep is probed with hunks of real defects
 * it could stop a reviewer from reporting; it is reverted when the kept text reports a probe's defect and
 * the edit misses it on fresh draws. A skill whose evals carry no feedback records is never probed. The
 * grader is exact here (every draw of a text alike, so no confirmation draws); models are Anthropic's API
 * served by nock (the real provider code runs); git is real.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import { runIterate } from '../../src/iterate/run.js';
import type { Logger } from '../../src/ports/logger.js';
import { cleanupTempDirs, git, oneNightOptions, tempDir } from '../helpers/engine-fixtures.js';
import { strictNock } from '../helpers/nock-frame.js';
import { anthropicSkillModels, serveSkillModels, type SkillScript } from '../helpers/nock-skill-models.js';

strictNock();
afterEach(cleanupTempDirs);

const SILENT: Logger = { info: () => undefined, warn: () => undefined, progress: () => undefined };
const REVIEWER = '.github/skills/review-loop-reviewer';
const PLAIN = '.claude/skills/release-notes';
const RULE = 'Report each defect with a title, the file and the line.';
const NARROW = 'Report only critical and major problems.';

const REVIEWER_SKILL = `---
name: review-loop-reviewer
description: Review a pull request's change and report its defects.
---
# Reviewer

${RULE}
`;

const diffPrompt = (file: string, line: string) =>
  `\`\`\`diff\n--- a/${file}\n+++ b/${file}\n${line}\n\`\`\`\n\nReview this change.`;

/** A dismissed TODO (the narrowing line stops it) and an accepted SQL finding (critical: not stopped). */
const REVIEWER_EVALS = `${JSON.stringify(
  {
    skill_name: 'review-loop-reviewer',
    evals: [
      {
        id: 1,
        prompt: diffPrompt('src/todo.ts', '+// TODO: paginate'),
        assertions: ['The review does not report: TODO left in the code in src/todo.ts'],
        skillclimb: {
          feedback: { kind: 'dismissed', title: 'TODO left in the code', file: 'src/todo.ts', pr: 3 },
        },
      },
      {
        id: 2,
        prompt: diffPrompt('src/db.ts', '+db.query(`SELECT ${id}`);'),
        assertions: ['The review reports: SQL built from user input in src/db.ts'],
        skillclimb: {
          feedback: { kind: 'accepted', title: 'SQL built from user input', file: 'src/db.ts', pr: 4 },
        },
      },
    ],
  },
  null,
  2,
)}\n`;

const PLAIN_SKILL = `---
name: release-notes
description: Write release notes from a list of merged pull requests.
---
# Release notes

List every change.
`;

const PLAIN_EVALS = `${JSON.stringify(
  {
    skill_name: 'release-notes',
    evals: [{ id: 1, prompt: 'PRs: #1 fix login', assertions: ['The notes group the changes by kind'] }],
  },
  null,
  2,
)}\n`;

/** The probe's defect: a promise not awaited, minor, so the narrowing line silences it. */
const AWAIT_PROBE = {
  title: 'A promise is not awaited',
  file: 'src/jobs.ts',
  hunk: 'diff --git a/src/jobs.ts b/src/jobs.ts\n@@ -1,2 +1,3 @@\n+  sendReceipt(order);\n   return order;',
};

async function project(skills: { reviewer?: boolean; plain?: boolean }): Promise<string> {
  const dir = await tempDir('skillclimb-silencing-probe-');
  const write = async (folder: string, skill: string, evals: string) => {
    await mkdir(path.join(dir, folder, 'evals'), { recursive: true });
    await writeFile(path.join(dir, folder, 'SKILL.md'), skill);
    await writeFile(path.join(dir, folder, 'evals', 'evals.json'), evals);
  };
  if (skills.reviewer) await write(REVIEWER, REVIEWER_SKILL, REVIEWER_EVALS);
  if (skills.plain) await write(PLAIN, PLAIN_SKILL, PLAIN_EVALS);
  await writeFile(path.join(dir, '.gitignore'), 'results.tsv\n.skill-iterate.lock\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/**
 * Each render says its own verdict (`verdict:true` when the scenario's one assertion holds), so the grader
 * only reads it back. The reviewer's edit stops the TODO finding; on the probe's hunk the edited text
 * reports the defect when `editReportsProbe`, the kept text always does. The plain skill's edit adds
 * grouping, which its one assertion wants.
 */
function script(editReportsProbe: boolean, probes = [AWAIT_PROBE]): SkillScript {
  return {
    render: ({ system, user }) => {
      const narrowed = system.includes(NARROW);
      let pass: boolean;
      if (user.includes('sendReceipt')) pass = !narrowed || editReportsProbe;
      else if (user.includes('src/todo.ts')) pass = narrowed;
      else if (user.includes('src/db.ts')) pass = true;
      else pass = system.includes('Group the changes by kind.');
      return `review ${user.length}: verdict:${pass}`;
    },
    grade: ({ text, ids }) => (text.includes('verdict:true') ? ids : []),
    propose: ({ text }) =>
      text.includes('name: release-notes')
        ? {
            description: 'group the notes',
            old_string: 'List every change.',
            new_string: 'List every change.\nGroup the changes by kind.',
          }
        : { description: 'narrow the review', old_string: RULE, new_string: `${RULE}\n${NARROW}` },
    probe: () => ({ probes }),
  };
}

async function night(repo: string) {
  const options = await oneNightOptions(repo, { concurrency: 1 });
  return runIterate(options, createLocalPorts(options, { models: anthropicSkillModels(), log: SILENT }));
}

const rowsOf = (repo: string, folder: string) =>
  readFile(path.join(repo, folder, 'evals', 'results.tsv'), 'utf8');

describe('the silencing probe', () => {
  it('reverts an edit whose probe defect the kept text reports and the edit misses, naming the defect', async () => {
    const repo = await project({ reviewer: true });
    const head = git(repo, 'rev-parse', 'HEAD');
    const bodies = serveSkillModels(script(false));

    const run = await night(repo);

    expect(run.results[0]?.status).toBe('no-improvement');
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    const rows = await rowsOf(repo, REVIEWER);
    expect(rows).toContain(
      '(revert: silences real defects: A promise is not awaited in src/jobs.ts (reported by the kept text ' +
        'in 3 of 3 draws, by the edit in 0 of 5))',
    );
    // The probe writer was shown the added line as data, and the team's accepted finding.
    expect(bodies.probe).toHaveLength(1);
    expect(bodies.probe[0]).toMatch(/BEGIN-CHANGE-\S+\n\+ added: Report only critical and major problems\./);
    expect(bodies.probe[0]).toContain('SQL built from user input');
    // Fresh draws: five of the edit (missed in five), then three of the kept text (reported in three).
    const probeRenders = bodies.render.filter((r) => r.user.includes('sendReceipt'));
    expect(probeRenders.filter((r) => r.system.includes(NARROW))).toHaveLength(5);
    expect(probeRenders.filter((r) => !r.system.includes(NARROW))).toHaveLength(3);
  });

  it('keeps an edit whose probe defect the edit still reports, after three draws of the edit alone', async () => {
    const repo = await project({ reviewer: true });
    const bodies = serveSkillModels(script(true));

    const run = await night(repo);

    expect(run.results[0]?.status).toBe('shipped');
    expect(await readFile(path.join(repo, REVIEWER, 'SKILL.md'), 'utf8')).toContain(NARROW);
    expect(await rowsOf(repo, REVIEWER)).toMatch(/\tkeep\t/);
    expect(bodies.probe).toHaveLength(1);
    const probeRenders = bodies.render.filter((r) => r.user.includes('sendReceipt'));
    expect(probeRenders).toHaveLength(3);
    expect(probeRenders.every((r) => r.system.includes(NARROW))).toBe(true);
  });

  it('never probes a skill whose evals carry no feedback: its calls are the same as without a reviewer beside it', async () => {
    const alone = await project({ plain: true });
    const aloneBodies = serveSkillModels(script(false));
    await night(alone);
    const aloneRoles = aloneBodies.order.map((c) => c.role);

    const both = await project({ reviewer: true, plain: true });
    nock.cleanAll();
    const bothBodies = serveSkillModels(script(false));
    const run = await night(both);

    expect(run.results.map((r) => r.status).sort()).toEqual(['no-improvement', 'shipped']);
    // One probe call, about the reviewer's line; none for the plain skill's kept edit.
    expect(bothBodies.probe).toHaveLength(1);
    expect(bothBodies.probe[0]).toContain(NARROW);
    expect(bothBodies.probe[0]).not.toContain('Group the changes by kind.');
    const plainCalls = bothBodies.order
      .filter((c) => c.text.includes('release-notes') || c.text.includes('#1 fix login'))
      .map((c) => c.role);
    // The same calls; their order is not compared, since the baseline's extra draws run beside the first
    // editor call and which of them the server receives first is a matter of timing.
    expect([...plainCalls].sort()).toEqual([...aloneRoles].sort());
    expect(await readFile(path.join(both, PLAIN, 'SKILL.md'), 'utf8')).toContain(
      'Group the changes by kind.',
    );
  });
});
