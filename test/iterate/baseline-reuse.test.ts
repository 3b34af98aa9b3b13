/**
 * The baseline's draws kept between nights (docs/how-it-works.md § Baseline, § Decisions under noise, "The
 * noise"): `skillclimb iterate` nights on one checkout, models served by nock at Anthropic's API (the real
 * provider code runs), real git. Each render answers `<text>|<scenario>|draw k` (k counts that night's
 * renders of the text and scenario), and the grader's verdicts are a table over (text, scenario, k).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { runIterate } from '../../src/iterate/run.js';
import type { Logger } from '../../src/ports/logger.js';
import { strictNock } from '../helpers/nock-frame.js';
import { anthropicSkillModels, serveSkillModels, type SkillScript } from '../helpers/nock-skill-models.js';
import { cleanupTempDirs, git, makeProject, oneNightOptions } from '../helpers/engine-fixtures.js';
import {
  addSummary,
  drawTableScript,
  reword,
  variantOf,
  type Table,
  type Variant,
} from '../helpers/draw-table.js';

strictNock();
afterEach(cleanupTempDirs);

const noEdit: SkillScript['propose'] = () => {
  throw new Error('no editor call expected');
};

/** A neutral edit: the baseline's draws 0, .5, 0 (sd .2887); the edit's .5, 0, 0. */
const NEUTRAL: Table = {
  base: { s1: [[], [1], []] },
  reworded: { s1: [[1], [], []] },
  none: { s1: [[]] },
};
/**
 * The edit improves: the loop's draws of it (.5, .5: kept after 2) and the confirmation's (.5, then 1 from
 * draw 3 on) differ. The loop's draws agree on every check, so when the confirmation starts the grader has
 * flipped on 2 of 8 pairs of draws (the baseline's assertion 2), 25 %: under the 32 % from which the
 * confirmation draws the baseline fresh (docs/how-it-works.md § Decisions under noise, "The
 * confirmation"), so its baseline side is the baseline's own draws.
 */
const IMPROVING: Table = {
  base: { s1: [[], [2], [], [1, 2], [1, 2], [1, 2]] },
  improved: { s1: [[1], [1], [1], [1, 2]] },
  none: { s1: [[]] },
};

const RECORD = '.claude/skills/demo/evals/baseline-draws.json';

interface RecordFile {
  version: number;
  entries: Array<{
    key: string;
    drawn_at: string;
    structural: number;
    draws: Array<{
      score: number;
      all_pass: boolean;
      pairs: Array<{ scenario: string; assertion: number; pass: boolean }>;
    }>;
  }>;
}

async function recordOf(project: string): Promise<RecordFile> {
  return JSON.parse(await readFile(path.join(project, RECORD), 'utf8')) as RecordFile;
}

/** The passing assertion ids of each stored draw of an entry. */
const passing = (entry: RecordFile['entries'][number]) =>
  entry.draws.map((d) => d.pairs.filter((p) => p.pass).map((p) => p.assertion));

async function night(
  project: string,
  table: Table,
  propose: SkillScript['propose'],
  options: Partial<IterateOptions> = {},
  /** The models' server (ANTHROPIC_BASE_URL); Anthropic's API when undefined. */
  baseUrl?: string,
  /** Holds (or fails) a model call before it is answered. */
  hold?: SkillScript['hold'],
) {
  const info: string[] = [];
  const warnings: string[] = [];
  nock.cleanAll();
  const log: Logger = { info: (m) => info.push(m), warn: (m) => warnings.push(m), progress: () => undefined };
  const bodies = serveSkillModels({ ...drawTableScript(table, propose), hold }, baseUrl);
  const full = await oneNightOptions(project, { ignoreFreshness: true, ...options });
  const before = git(project, 'rev-parse', 'HEAD').trim();
  const models = anthropicSkillModels(baseUrl);
  const run = await runIterate(full, createLocalPorts(full, { models, log }));
  const summary = run.summaryPath ? await readFile(run.summaryPath, 'utf8') : '';
  const rows = run.results[0]?.rows ?? [];
  const renders = (v: Variant) => bodies.render.filter((b) => variantOf(b.system) === v).length;
  const grades = (v: Variant) => bodies.grader.filter((g) => g.includes(`${v}|s`)).length;
  const shipped = git(project, 'rev-list', '--count', `${before}..HEAD`).trim() !== '0';
  return { run, summary, rows, renders, grades, info, warnings, shipped };
}

const floorLine = (summary: string) => /^- Noise floor: .*$/m.exec(summary)?.[0];
const baselineLine = (summary: string) => /Baseline: \d independent trials.*$/m.exec(summary)?.[0];

describe("the baseline's draws across nights", () => {
  it('an unchanged skill that did not ship draws only draw 0 of its baseline the next nights, with the same spread, and the confirmation reuses the stored draws', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    const first = await night(project, NEUTRAL, reword);
    expect(first.run.results[0]?.status).toBe('no-improvement');
    expect([first.renders('base'), first.grades('base')]).toEqual([3, 3]);
    const record = await recordOf(project);
    expect(record.entries).toHaveLength(1);
    // Draws 1 and 2 of the baseline (draw 0 is drawn fresh each night and never kept); verdicts only.
    expect(passing(record.entries[0]!)).toEqual([[1], []]);
    expect(record.entries[0]!.draws.map((d) => d.score)).toEqual([0.5, 0]);
    expect(JSON.stringify(record)).not.toMatch(/draw \d|rendered|reason/);

    const second = await night(project, NEUTRAL, reword);
    expect(second.run.results[0]?.status).toBe('no-improvement');
    expect([second.renders('base'), second.grades('base')]).toEqual([1, 1]);
    expect(second.rows[0]?.description).toContain(
      `initial baseline (mean of 3 trials, 2 of them drawn on ${record.entries[0]!.drawn_at.slice(0, 10)}, sd 0.2887)`,
    );
    expect(second.rows[0]?.score).toBeCloseTo(1 / 6, 9);
    // The same spread, trials and noise floor (flip rate) as the night that drew them, and the summary
    // says which of them an earlier night drew.
    const day = record.entries[0]!.drawn_at.slice(0, 10);
    expect(first.summary).not.toContain('earlier night');
    expect(baselineLine(second.summary)).toBe(
      `${baselineLine(first.summary)}; trial 1 was drawn tonight, trials 2 and 3 on an earlier night ` +
        `(${day}) and reused: the SKILL.md, evals, prompts, models and model endpoints are unchanged since`,
    );
    expect(baselineLine(second.summary)).toMatch(
      /3 independent trials, composite mean 0\.1667, spread \(sd\) 0\.2887, measured scenario by scenario/,
    );
    expect(floorLine(second.summary)).toBe(
      floorLine(first.summary)!.replace(
        "against the baseline's 3)",
        `against the baseline's 3, 2 of them drawn on an earlier night (${day}))`,
      ),
    );
    expect(floorLine(second.summary)).toContain('33 % flip rate');
    expect(second.summary).toContain(
      `Some of those draws were drawn on an earlier night and reused: 2 of demo's 3 baseline trials (${day}).`,
    );
    expect(second.info.some((m) => m.includes("the baseline's 2 extra draws from"))).toBe(true);
    // Reused and not shipped: the record stays as it was.
    expect(await recordOf(project)).toEqual(record);

    // A third night whose edit would ship: the confirmation's baseline side is draw 0 and the stored draws.
    const third = await night(project, IMPROVING, addSummary);
    expect(third.renders('base')).toBe(1);
    const c = third.run.results[0]?.measurement?.confirmation;
    expect(c?.reusedBaseline).toBe(true);
    expect(c?.baselineScores).toEqual([0, 0.5, 0]);
    expect(third.summary).toContain(
      `(reused: no selection chose them; 2 of them drawn on an earlier night (${day}))`,
    );
  });

  it("a night that shipped keeps the confirmation's fresh draws of the shipped text, not the loop's, and the next night uses them", async () => {
    const project = await makeProject([{ name: 'demo' }]);
    const first = await night(project, IMPROVING, addSummary);
    expect(first.run.results[0]?.status).toBe('shipped');
    expect(first.shipped).toBe(true);
    const c = first.run.results[0]!.measurement!.confirmation!;
    expect(c.reusedBaseline).toBe(true);
    const loopDraws = Number(/mean of (\d) trials/.exec(first.rows[1]!.description)?.[1]);
    expect(loopDraws).toBeGreaterThanOrEqual(2);
    const record = await recordOf(project);
    // The baseline's draws 1, 2 and the final text's confirmation draws, each under its own key.
    expect(record.entries).toHaveLength(2);
    const [base, shipped] = record.entries;
    expect(passing(base!)).toEqual([[2], []]);
    const confirmationDraws = IMPROVING.improved!.s1!.slice(loopDraws, loopDraws + c.trials);
    expect(passing(shipped!)).toEqual(confirmationDraws);
    expect(passing(shipped!)).not.toEqual(IMPROVING.improved!.s1!.slice(0, c.trials));
    expect(shipped!.draws.map((d) => d.score)).toEqual(c.finalScores);
    expect(shipped!.key).not.toBe(base!.key);

    // The next night starts from the shipped text: its draw 0 is fresh, the stored draws stand in for the rest.
    const table: Table = { improved: { s1: [[1]] }, none: { s1: [[]] } };
    const second = await night(project, table, noEdit, { perSkillIterations: 0 });
    expect([second.renders('improved'), second.grades('improved')]).toEqual([1, 1]);
    expect(second.renders('base')).toBe(0);
    const used = Math.min(c.trials, 2);
    expect(second.rows[0]?.description).toContain(
      `mean of ${used + 1} trials, ${used} of them drawn on ${shipped!.drawn_at.slice(0, 10)}`,
    );
    const scores = [0.5, ...c.finalScores.slice(0, used)];
    expect(second.rows[0]?.score).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 9);
  });

  it('a changed SKILL.md does not match: its extra draws are drawn as without a record and the record is replaced', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    await night(project, NEUTRAL, reword);
    const before = await recordOf(project);
    const skillMd = path.join(project, '.claude/skills/demo/SKILL.md');
    await writeFile(skillMd, `${await readFile(skillMd, 'utf8')}\nOne more line.\n`);
    git(project, 'commit', '-qam', 'edit SKILL.md by hand');

    const second = await night(project, NEUTRAL, reword);
    expect([second.renders('base'), second.grades('base')]).toEqual([3, 3]);
    expect(second.rows[0]?.description).toContain('initial baseline (mean of 3 trials, sd 0.2887)');
    expect(second.info.some((m) => m.includes('the stored baseline draws do not match'))).toBe(true);
    const after = await recordOf(project);
    expect(after.entries).toHaveLength(1);
    expect(after.entries[0]!.key).not.toBe(before.entries[0]!.key);
    expect(passing(after.entries[0]!)).toEqual([[1], []]);
  });

  it('the same model id at another server does not match: its extra draws are drawn again; at the same server they are reused', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    const first = await night(project, NEUTRAL, reword, {}, 'https://llm-a.example.com/v1');
    expect([first.renders('base'), first.grades('base')]).toEqual([3, 3]);
    const before = await recordOf(project);

    const other = await night(project, NEUTRAL, reword, {}, 'https://llm-b.example.com/v1');
    expect([other.renders('base'), other.grades('base')]).toEqual([3, 3]);
    expect(other.rows[0]?.description).toContain('initial baseline (mean of 3 trials, sd 0.2887)');
    expect(other.summary).not.toContain('earlier night');
    expect(other.info.some((m) => m.includes('the stored baseline draws do not match'))).toBe(true);
    const after = await recordOf(project);
    expect(after.entries).toHaveLength(1);
    expect(after.entries[0]!.key).not.toBe(before.entries[0]!.key);

    const same = await night(project, NEUTRAL, reword, {}, 'https://llm-b.example.com/v1');
    expect([same.renders('base'), same.grades('base')]).toEqual([1, 1]);
    expect(same.rows[0]?.description).toContain('2 of them drawn on');
  });

  it('an unreadable record is ignored with a warning naming the file, drawn again and replaced', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    await night(project, NEUTRAL, reword);
    const good = await recordOf(project);
    const file = path.join(project, RECORD);
    await writeFile(file, '{"version": 1, "entries": [');

    const second = await night(project, NEUTRAL, reword);
    expect(second.warnings).toEqual([
      expect.stringContaining(`demo: ${file} is not a record of the baseline's draws`),
    ]);
    expect([second.renders('base'), second.grades('base')]).toEqual([3, 3]);
    const replaced = await recordOf(project);
    expect(replaced.entries[0]!.key).toBe(good.entries[0]!.key);
    expect(passing(replaced.entries[0]!)).toEqual([[1], []]);
  });

  it('a draw tonight after the stored ones that fails leaves the baseline on the draws that scored, and says so', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    await night(project, NEUTRAL, reword);
    // Night 2 asks for 4 trials: draw 0 tonight, draws 1 and 2 from the record, draw 3 tonight. Every
    // render of the baseline text after draw 0's fails at the HTTP layer (retries included).
    let baseRenders = 0;
    const failDraw3: SkillScript['hold'] = ({ role, text }) =>
      role === 'render' && variantOf(text) === 'base' && ++baseRenders > 1
        ? Promise.reject(new Error('connection reset'))
        : undefined;
    const second = await night(project, NEUTRAL, reword, { trials: 4 }, undefined, failDraw3);
    expect(second.warnings.filter((m) => m.includes("the baseline's trials after"))).toEqual([
      expect.stringMatching(
        /^demo: the baseline's trials after the first 3 could not be scored \(harness-error: .*\); its noise is measured on 3 trials$/,
      ),
    ]);
    expect(second.rows[0]?.description).toContain('initial baseline (mean of 3 trials, 2 of them drawn on');
  });

  it('with --trials 1 nothing is kept', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    await night(project, NEUTRAL, reword, { trials: 1, keepRule: 'original' });
    await expect(readFile(path.join(project, RECORD), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
