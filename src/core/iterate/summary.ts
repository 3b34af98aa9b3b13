/**
 * The morning summary (docs/how-it-works.md § Morning summary and results.tsv): what an operator reads first thing to learn what the night did. Pure —
 * src/iterate/summary-file.ts picks the file name and writes it.
 */
import type { KeptEdit, RunResult, SkillResult } from './run-result.js';
import { totalTokens, type Usage } from '../usage.js';
import { redactSecrets } from '../text/redact.js';
import { inertInline } from '../text/untrusted-text.js';
import { measurementSection } from './measurement-text.js';
import { nightNoiseLine, nightPriceLine } from './night-price.js';
import { nightBudgetLine, runFirstLine } from './night-budget.js';
import {
  evalsInitCommand,
  iterateCommandLine,
  typedOffline,
  withoutOffline,
  type CommandSetting,
} from './skill-layout.js';

/** Skills that gained less than this are plateaued (docs/how-it-works.md § Morning summary and results.tsv). */
export const PLATEAU_DELTA = 0.01;
const TOP_EDITS = 5;
const EDIT_DESCRIPTION_MAX = 200;

/** `YYYY-MM-DD` in UTC: the summary's date is the day the run started, wherever the runner is. */
export function summaryDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** ISO 8601 to the second, e.g. `2026-05-23T22:15:04Z` (the original skill's examples carry no milliseconds). */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/**
 * The line under the H1 of a run that stopped early. The kill-switch wording is the original skill's, exactly;
 * the other reasons follow its shape (`(partial -- interrupted by SIGINT at <iso>)` for Ctrl+C).
 */
export function partialLine(partial: { reason: string; at: Date }): string {
  const at = isoSeconds(partial.at);
  const reason = oneLine(partial.reason);
  // First: an interrupt reason may quote anything (a caller's abort message), even "budget" or "exception".
  const interrupted = /^interrupted\b(.*)$/i.exec(reason);
  if (interrupted) return `(partial -- interrupted${interrupted[1]} at ${at})`;
  const unreadable = /^kill-switch unreadable: (.*)$/i.exec(reason);
  if (unreadable) return `(partial -- kill-switch unreadable at ${at}: ${untrusted(unreadable[1] ?? '')})`;
  if (/kill-?switch/i.test(reason)) return `(partial -- kill-switch hit at ${at})`;
  const exception = /^(?:exception|error)\b[\s:-]*(.*)$/i.exec(reason);
  if (exception)
    return exception[1]
      ? `(partial -- exception at ${at}: ${untrusted(exception[1])})`
      : `(partial -- exception at ${at})`;
  if (/^night budget\b/i.test(reason)) return `(partial -- night budget reached at ${at})`;
  if (/\b(?:cost|budget)\b/i.test(reason)) return `(partial -- cost budget reached at ${at})`;
  return `(partial -- ${reason ? untrusted(reason) : 'stopped early'} at ${at})`;
}

function score2(score: number | null): string {
  return score === null ? '-' : score.toFixed(2);
}

function signed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return text.startsWith('-') ? text : `+${text}`;
}

function delta(result: SkillResult): number | null {
  return result.baselineScore === null || result.finalScore === null
    ? null
    : result.finalScore - result.baselineScore;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** `2h 03m 12s`, `4m 05s`, `12.3s`: padded, for reading (the flags' `4m5s` is duration.ts formatDuration). */
export function formatPaddedDuration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}h ${mm}m ${ss}s` : `${m}m ${ss}s`;
}

export function formatCost(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** A table cell: one line, pipes escaped so model-written text cannot add columns. */
function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

/**
 * Text a model or another program wrote (an edit description, a skip reason quoting an API error), as
 * inert text: cut raw first, then neutralised (docs/how-it-works.md § Untrusted text and secrets), so no
 * mention, reference, HTML comment, image or link in it is live in the published summary.
 */
function untrusted(text: string, max = 1_000): string {
  return inertInline(oneLine(text), max);
}

function code(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** The link column: a PR or issue URL, a squash commit SHA, or a park file beside this summary. */
export function formatLink(link: string | undefined): string {
  if (link === undefined || link.trim() === '') return '-';
  if (/^https?:\/\//i.test(link)) {
    const github = /\/(pull|issues)\/(\d+)(?:[/?#].*)?$/.exec(link);
    const label = github ? `${github[1] === 'pull' ? 'PR' : 'issue'} #${github[2]}` : 'link';
    return `[${label}](${link.replace(/[ |()]/g, encodeURIComponent)})`;
  }
  if (/^[0-9a-f]{7,40}$/i.test(link)) return code(link);
  const runsFile = /(?:^|[\\/])docs[\\/]skill-iterate-runs[\\/]([^\\/]+)$/.exec(link);
  // Park files live in the summary's own folder, so a bare relative link opens them from the rendered page.
  if (runsFile?.[1]) return `[${cell(runsFile[1])}](${encodeURIComponent(runsFile[1])})`;
  return code(link.replace(/\|/g, '\\|'));
}

function overview(run: RunResult): string {
  const processed = run.results.length;
  const by = (test: (r: SkillResult) => boolean) => run.results.filter(test).length;
  const parts = [
    [by((r) => r.status === 'shipped'), 'shipped'],
    [by((r) => r.status === 'no-improvement'), 'no improvement'],
    [by((r) => r.status === 'defect-park'), 'defect-parked (3 consecutive crashes)'],
    [by((r) => r.status === 'calibration-park'), 'calibration-parked'],
    [by((r) => r.status.startsWith('skipped')), 'skipped'],
  ] as const;
  const tally = parts.filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`);
  const head = `Processed ${processed} of ${plural(run.queue.length, 'queued skill')}`;
  const done = new Set(run.results.map((r) => r.skill));
  const notReached = run.queue.filter((skill) => !done.has(skill));
  const tail = notReached.length > 0 ? ` Not reached: ${notReached.map(cell).join(', ')}.` : '';
  return (tally.length > 0 ? `${head}: ${tally.join(', ')}.` : `${head}.`) + tail;
}

/** The skills carried from last night's budget, and tonight's budget stop (docs/how-it-works.md § Caps and budgets). */
function nightBudgetLines(run: RunResult): string[] {
  const lines: string[] = [];
  if (run.runFirst && run.runFirst.length > 0) lines.push(cell(runFirstLine(run.runFirst)), '');
  if (run.nightBudget) lines.push(cell(nightBudgetLine(run.nightBudget)), '');
  return lines;
}

/** The night's noise floor and the price of what it shipped (docs/how-it-works.md § Decisions under noise). */
function nightEconomics(run: RunResult): string[] {
  if (run.results.length === 0) return [];
  const noise = nightNoiseLine(run.results);
  return [...(noise ? [noise, ''] : []), nightPriceLine(run.results, run.usage), ''];
}

function skillTable(results: SkillResult[]): string[] {
  if (results.length === 0) return ['No skills were processed.'];
  const rows = results.map((r) => {
    const d = delta(r);
    return [
      cell(r.skill),
      score2(r.baselineScore),
      score2(r.finalScore),
      d === null ? '-' : signed(d, 2),
      String(r.iterations),
      r.wallSecondsTotal.toFixed(1),
      untrusted(r.detail ? `${r.status} (${r.detail})` : r.status, 500),
      formatLink(r.link),
    ];
  });
  return [
    '| skill | baseline | final | delta | iterations | wall seconds | status | link |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
}

function topEdits(results: SkillResult[]): string[] {
  const edits: Array<KeptEdit & { skill: string; status: string; link: string | undefined }> =
    results.flatMap((r) =>
      r.keptEdits.map((e) => ({ ...e, skill: r.skill, status: r.status, link: r.link })),
    );
  if (edits.length === 0) return ['No edits were kept.'];
  edits.sort((a, b) => b.delta - a.delta || a.skill.localeCompare(b.skill) || a.iteration - b.iteration);
  const shown = edits.slice(0, TOP_EDITS);
  const lines = [
    '| skill | iteration | shipped in | delta | score | edit |',
    '| --- | ---: | --- | ---: | ---: | --- |',
    ...shown.map((e) => {
      const edit = untrusted(e.description, EDIT_DESCRIPTION_MAX);
      const note = e.status === 'shipped' ? '' : ` (not shipped: ${untrusted(e.status, 500)})`;
      // The edit's own commit lived in the skill's worktree, which is gone: the reader can open the
      // squash commit or the pull request that holds it, and nothing else.
      const commit = e.status === 'shipped' ? formatLink(e.link) : '-';
      return `| ${cell(e.skill)} | ${e.iteration} | ${commit} | ${signed(e.delta, 3)} | ${e.score.toFixed(3)} | ${edit}${note} |`;
    }),
  ];
  if (edits.length > shown.length) {
    lines.push('', `${edits.length - shown.length} more kept edits are in the skills' results.tsv files.`);
  }
  return lines;
}

/** After an `evals init` printed for an offline night: what makes it work when pasted. */
const OFFLINE_AUTHOR_NOTE =
  '; the offline provider writes no evals, so set ANTHROPIC_API_KEY or OPENAI_API_KEY first';

/** What the plateau section offers: the paragraph above the list, and each skill's next step. */
interface PlateauAdvice {
  intro: string;
  next: (skill: string) => string;
}

function plateaued(
  results: SkillResult[],
  setting: CommandSetting | undefined,
  mode: RunResult['mode'],
): string[] {
  const flat = results.filter((r) => {
    const d = delta(r);
    return (r.status === 'shipped' || r.status === 'no-improvement') && d !== null && d < PLATEAU_DELTA;
  });
  if (flat.length === 0) return [];
  const advice = mode === 'structural' ? structuralAdvice(setting) : evalsAdvice(setting);
  return [
    `## Plateaued (delta < ${PLATEAU_DELTA})`,
    '',
    advice.intro,
    '',
    ...flat.map(
      (r) =>
        `- ${cell(r.skill)}: ${score2(r.baselineScore)} -> ${score2(r.finalScore)} ` +
        `(${signed(delta(r) ?? 0, 3)}) -- ${advice.next(r.skill)}`,
    ),
    '',
  ];
}

/** A night scored on the evals: check they still catch broken edits, or ask for a new set. */
function evalsAdvice(setting: CommandSetting | undefined): PlateauAdvice {
  return {
    intro:
      'Serial hill-climbing ran out of easy edits on these skills. Often their evals no longer tell a ' +
      'better edit from a worse one: calibration checks that they still catch broken edits (the command ' +
      'passes the freshness window: the skill just ran), and `evals init --force` asks the author model ' +
      'for a new set (review them before committing)' +
      (typedOffline(setting) ? `${OFFLINE_AUTHOR_NOTE}.` : '.'),
    next: (skill) =>
      `${code(iterateCommandLine(`--skill ${skill} --ignore-freshness`, { ...setting, calibrate: true }))} ` +
      `or ${code(evalsInitCommand(skill, '--force', setting))}`,
  };
}

/**
 * A structure-only night: its score never read the evals, so calibration and new evals are not the next
 * step; a night with a model is (the printed command without `--model offline` or `--mode structural`,
 * which a model key in the environment then scores on the evals).
 */
function structuralAdvice(setting: CommandSetting | undefined): PlateauAdvice {
  const withModel: CommandSetting = {
    ...setting,
    mode: undefined,
    calibrate: undefined,
    models: withoutOffline(setting?.models),
  };
  return {
    intro:
      "Structural scoring found no more edits that raise these skills' structural score. It checks " +
      'structure only and never reads their evals; a night with a model scores them on their evals: ' +
      'set ANTHROPIC_API_KEY or OPENAI_API_KEY and run the command after each skill.',
    next: (skill) => code(iterateCommandLine(`--skill ${skill} --ignore-freshness`, withModel)),
  };
}

function exclusions(run: RunResult): string[] {
  const lines = ['## Exclusions', ''];
  const other = run.excludedOther ?? [];
  const notRequested = run.notRequested ?? [];
  if (
    run.excludedBySkipList.length === 0 &&
    run.excludedByFreshness.length === 0 &&
    other.length === 0 &&
    notRequested.length === 0 &&
    run.outsideSetting === undefined
  ) {
    return [...lines, 'None: every skill found was queued.', ''];
  }
  if (notRequested.length > 0) {
    lines.push(
      `Not asked for: ${plural(notRequested.length, 'other skill')} the skills setting finds ` +
        '(the run was given its skills with --skill, --queue or the skill input).',
      '',
      ...namesBlock(notRequested),
      '',
    );
  }
  if (other.length > 0) {
    lines.push('Not scorable (each with what to do):', '');
    for (const [reason, group] of byReason(other)) {
      if (group.length < GROUP_FROM) {
        for (const e of group) {
          const next = e.next ? ` -- ${cell(e.next)}` : '';
          lines.push(`- ${cell(e.skill)} (${code(e.dir)}): ${cell(e.reason)}${next}`);
        }
        continue;
      }
      const next = groupNext(reason, group, run.command);
      lines.push(`- ${cell(reason)}: ${plural(group.length, 'skill')}${next ? ` -- ${cell(next)}` : ''}`);
      lines.push('', ...namesBlock(group.map((e) => e.skill)), '');
    }
    lines.push('');
  }
  if (run.excludedBySkipList.length > 0) {
    lines.push('Skip-list:', '');
    for (const e of run.excludedBySkipList) lines.push(`- ${cell(e.skill)} (skip-list: ${e.source})`);
    lines.push('');
  }
  if (run.excludedByFreshness.length > 0) {
    const hours = (run.freshnessWindowMs ?? 24 * 3_600_000) / 3_600_000;
    lines.push(`Cross-night freshness (ran within the last ${Number(hours.toFixed(2))}h):`, '');
    for (const e of run.excludedByFreshness) {
      lines.push(`- ${cell(e.skill)} (last run ${isoSeconds(e.lastRunAt)})`);
    }
    lines.push('');
  }
  if (run.outsideSetting !== undefined) {
    lines.push('Outside the skills setting:', '', `- ${cell(run.outsideSetting)}`, '');
  }
  return lines;
}

/** Exclusions sharing a reason are one line with a count from this many on (the names below it). */
const GROUP_FROM = 4;

/** The reason without what is particular to one skill (its folder): `invalid evals`, `half-bootstrapped`. */
function reasonKey(reason: string): string {
  if (reason === 'no evals') return reason;
  const colon = reason.indexOf(':');
  return colon > 0 ? reason.slice(0, colon) : reason;
}

function byReason(
  exclusions: NonNullable<RunResult['excludedOther']>,
): Array<[string, NonNullable<RunResult['excludedOther']>]> {
  const groups = new Map<string, NonNullable<RunResult['excludedOther']>>();
  for (const e of exclusions)
    groups.set(reasonKey(e.reason), [...(groups.get(reasonKey(e.reason)) ?? []), e]);
  return [...groups];
}

/** What to do about a group: `evals init --all` for skills without evals, else the one next step they share. */
function groupNext(
  reason: string,
  group: NonNullable<RunResult['excludedOther']>,
  setting: CommandSetting | undefined,
): string | undefined {
  if (reason === 'no evals') {
    return (
      `run ${code(evalsInitCommand('--all', '', setting))} to write them (or name the skills to set up first)` +
      (typedOffline(setting) ? OFFLINE_AUTHOR_NOTE : '')
    );
  }
  const nexts = new Set(group.map((e) => e.next));
  return nexts.size === 1 ? group[0]!.next : "each skill's next step is in the plan (`--dry-run`)";
}

/** A long list of names, collapsed (GitHub renders `<details>` in the job summary and the file alike). */
function namesBlock(names: readonly string[]): string[] {
  const list = names.map(cell).join(', ');
  if (names.length < GROUP_FROM) return [list];
  return ['<details><summary>' + plural(names.length, 'skill') + '</summary>', '', list, '', '</details>'];
}

function usageLines(usage: Usage): string[] {
  if (usage.calls === 0) return ['- Model calls: none'];
  // The total is the progress lines' total (totalTokens): the four parts add up to it.
  const parts = [
    `input ${count(usage.inputTokens)}`,
    `output ${count(usage.outputTokens)}`,
    `cache read ${count(usage.cacheReadTokens)}`,
    `cache write ${count(usage.cacheWriteTokens)}`,
  ];
  const lines = [
    `- Tokens: ${count(totalTokens(usage))} (${parts.join(', ')}) over ${plural(usage.calls, 'model call')}`,
  ];
  if (usage.costUsd !== null) lines.push(`- Estimated cost: ${formatCost(usage.costUsd)}`);
  return lines;
}

function runMetadata(run: RunResult): string[] {
  const queue = run.queue.length > 0 ? ` (${run.queue.map(cell).join(', ')})` : '';
  const lines = [
    '## Run',
    '',
    `- Started: ${isoSeconds(run.startedAt)}`,
    `- Ended: ${isoSeconds(run.endedAt)}`,
    `- Duration: ${formatPaddedDuration(run.endedAt.getTime() - run.startedAt.getTime())}`,
  ];
  if (run.partial) lines.push(`- Stopped early: ${untrusted(run.partial.reason)}`);
  lines.push(`- Models: ${cell(run.modelsLabel)}`, `- Queue: ${plural(run.queue.length, 'skill')}${queue}`);
  // Every score above is of this one mode; results.tsv marks the rows of other modes (results-tsv.ts).
  if (run.mode) lines.push(`- Mode: ${run.mode} (every score above is a ${run.mode} score)`);
  lines.push(...usageLines(run.usage));
  return lines;
}

/**
 * The morning summary as Markdown (pure), redacted with the exact `secrets` in use and by token shape
 * (docs/how-it-works.md § Untrusted text and secrets).
 */
export function renderMorningSummary(run: RunResult, secrets: readonly string[] = []): string {
  const lines = [`# skill-iterate morning summary -- ${summaryDate(run.startedAt)}`];
  if (run.partial) lines.push(partialLine(run.partial));
  lines.push(
    '',
    overview(run),
    '',
    ...nightBudgetLines(run),
    ...nightEconomics(run),
    '## Skills',
    '',
    ...skillTable(run.results),
    '',
    '## Top kept edits',
    '',
    ...topEdits(run.results),
    '',
    ...plateaued(run.results, run.command, run.mode),
    ...measurementSection(run.results),
    ...exclusions(run),
    ...runMetadata(run),
  );
  // Edit descriptions and crash reasons may quote provider errors; the summary is published.
  return redactSecrets(`${lines.join('\n')}\n`, secrets);
}
