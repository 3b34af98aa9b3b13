/**
 * The dashboard issue's body (docs/how-it-works.md § The dashboard issue), pure: ONE renderer for the
 * issue every night rewrites, and ONE parser for the checkboxes a maintainer ticks in it. The parser reads
 * only the task-list lines inside the order sections the renderer marks, so a person's edits anywhere else
 * in the issue (a note, a task list of their own, a reworded heading) change nothing it reads.
 */
import { formatGain, type FindingKind } from '../core/iterate/noise.js';
import { inertInline, postable } from '../core/text/untrusted-text.js';
import { renderSparkline } from '../github/action/score-chart.js';
import { DASHBOARD_MARKER_PREFIX, firstLine } from '../github/markers.js';

export const DASHBOARD_TITLE = 'skillclimb dashboard';

/** The three orders a checkbox can give (docs/how-it-works.md § The dashboard issue). */
export const ORDER_KINDS = ['run', 'skip', 'evals-init'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

const ORDER_HEADINGS: Readonly<Record<OrderKind, string>> = {
  run: 'Run on the next night (ignore freshness)',
  skip: 'Skip until unchecked',
  'evals-init': 'Re-run evals init (opens the evals-init pull request)',
};

/** A skill name a checkbox line can carry and the parser can read back unchanged. */
const ORDERABLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const isOrderableName = (name: string): boolean => ORDERABLE_NAME.test(name);

export type DashboardStatus =
  | { kind: 'shipped'; pr: number; url: string; gain: number }
  | { kind: 'no-improvement'; detail?: string | undefined }
  | { kind: 'plateau'; nights: number }
  | { kind: 'parked'; parkKind: string; url?: string | undefined }
  | { kind: 'not-shipped'; reason: string }
  | { kind: 'excluded'; reason: string; next?: string | undefined }
  | { kind: 'skipped-by-order' }
  | { kind: 'fresh'; until: Date }
  | { kind: 'skipped'; detail: string }
  | { kind: 'not-run' };

export interface DashboardSkill {
  skill: string;
  /** The last confirmed composite (the ship gate's re-measured final, else the night's final). */
  composite: number | null;
  /** Whether `composite` is the ship gate's confirmed score. */
  confirmed: boolean;
  /** The final composite of each recent night, oldest first. */
  trend: number[];
  uplift?: { value: number; measurable: boolean } | undefined;
  status: DashboardStatus;
  /** Eval-quality findings of the last night that measured them: assertion ids per kind. */
  findings: Array<{ kind: FindingKind; assertions: number[] }>;
}

export interface DashboardTotals {
  ran: number;
  shipped: number;
  parked: number;
  calls: number;
  tokens: number;
  costUsd: number | null;
  /** Why the night stopped early, when it did. */
  partial?: string | undefined;
  /** The night's noise floor and the price of its points (core/iterate/night-price.ts), one line each. */
  economics?: string[] | undefined;
}

export interface DashboardInput {
  generatedAt: Date;
  runUrl?: string | undefined;
  skills: DashboardSkill[];
  totals: DashboardTotals;
  /** Skills the next night would queue if it starts `assumedHours` after this one. */
  nextNight: {
    due: string[];
    assumedHours: number;
    /** The night budget's line, when it kept skills from starting (they lead `due`). */
    budget?: string | undefined;
  };
  /** The boxes written ticked (and recorded in the marker): the standing skips, and orders still pending. */
  ticked: OrderState;
  /** What became of the orders this night read, one plain sentence each (already inert). */
  orderNotes: string[];
  /** Each rule of the Agent Skills specification a SKILL.md breaks, `<file>: <field>: <detail>` (untrusted). */
  specViolations?: string[] | undefined;
}

/** The boxes the Action wrote ticked, per order: recorded on the hidden first line. */
export type OrderState = Record<OrderKind, string[]>;

export const NO_ORDERS: OrderState = Object.freeze({ run: [], skip: [], 'evals-init': [] });

/** The hidden first line: finds the issue again, and records the boxes the Action wrote ticked. */
export function dashboardMarker(state: OrderState): string {
  // Orderable names only (no `-->` can appear): the marker never needs escaping.
  const fields = ORDER_KINDS.map((kind) => [kind, state[kind].filter(isOrderableName)] as const)
    .filter(([, names]) => names.length > 0)
    .map(([kind, names]) => ` ${kind}=${names.join(',')}`);
  return `${DASHBOARD_MARKER_PREFIX}${fields.join('')} -->`;
}

export function isDashboardBody(body: string | null | undefined): boolean {
  const line = firstLine(body);
  return line.startsWith(DASHBOARD_MARKER_PREFIX) && line.endsWith('-->');
}

/** The boxes the Action last wrote ticked (from the marker); none when the body is not a dashboard. */
export function writtenState(body: string | null | undefined): OrderState {
  if (!isDashboardBody(body)) return { run: [], skip: [], 'evals-init': [] };
  const line = firstLine(body);
  const read = (kind: OrderKind) =>
    (new RegExp(`\\s${kind}=(\\S+)`).exec(line)?.[1] ?? '').split(',').filter(isOrderableName);
  return { run: read('run'), skip: read('skip'), 'evals-init': read('evals-init') };
}

const SECTION = /^\s*<!-- skillclimb:orders (run|skip|evals-init) -->\s*$/;
const SECTION_END = /^\s*<!-- skillclimb:orders-end -->\s*$/;
/** `- [x] \`name\`` (or `* [ ] name …`): a task-list item whose first word is the skill. */
const TASK = /^\s*(?:[-*+]|\d{1,9}[.)])\s+\[([ xX])\]\s+`?([A-Za-z0-9][A-Za-z0-9._-]{0,99})`?(?:\s|$)/;

/** Every box of each order section, ticked or not. A line outside the sections is never read. */
function orderBoxes(body: string | null | undefined): Record<OrderKind, Map<string, boolean>> {
  const boxes: Record<OrderKind, Map<string, boolean>> = {
    run: new Map(),
    skip: new Map(),
    'evals-init': new Map(),
  };
  let section: OrderKind | undefined;
  let fenced = false;
  for (const line of (body ?? '').split(/\r\n|\r|\n/)) {
    // A person's fenced example is text, not an order.
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const start = SECTION.exec(line);
    if (start) {
      section = start[1] as OrderKind;
      continue;
    }
    if (SECTION_END.test(line)) {
      section = undefined;
      continue;
    }
    if (section === undefined) continue;
    const task = TASK.exec(line);
    // A name listed twice counts as ticked when either box is.
    if (task) boxes[section].set(task[2]!, boxes[section].get(task[2]!) === true || task[1] !== ' ');
  }
  return boxes;
}

/** The ticked boxes of each order section. */
export function parseOrders(body: string | null | undefined): Record<OrderKind, string[]> {
  const boxes = orderBoxes(body);
  const ticked = (kind: OrderKind) => [...boxes[kind]].filter(([, on]) => on).map(([name]) => name);
  return { run: ticked('run'), skip: ticked('skip'), 'evals-init': ticked('evals-init') };
}

/**
 * The boxes as they stand: each listed box as it is ticked now, and each box the Action wrote ticked
 * but no longer listed (a list cut to fit, a line deleted) as written: only unticking ends an order.
 */
function currentOrders(body: string | null | undefined, written: OrderState): OrderState {
  const boxes = orderBoxes(body);
  const current = (kind: OrderKind) => [
    ...new Set([
      ...written[kind].filter((name) => !boxes[kind].has(name)),
      ...[...boxes[kind]].filter(([, on]) => on).map(([name]) => name),
    ]),
  ];
  return { run: current('run'), skip: current('skip'), 'evals-init': current('evals-init') };
}

/** Who made the edits since the Action last wrote the body, as the run could establish it. */
export type EditAttribution =
  | { kind: 'writers'; logins: string[] }
  | { kind: 'not-writers'; logins: string[] }
  | { kind: 'unknown'; why: string };

export interface ResolvedOrders {
  /** The ticked boxes in force tonight, per order. */
  orders: OrderState;
  /** Sentences for the dashboard and the log: what was ignored and why (inert). */
  notes: string[];
}

/**
 * The orders in force: the boxes in `body` count when they are what the Action last wrote, or when every
 * edit since was by a user with write access; otherwise what the Action wrote stands and a note says why.
 * `attribution` is asked only when a box changed (it costs API calls).
 */
export async function resolveOrders(
  body: string | null | undefined,
  attribution: () => Promise<EditAttribution>,
  known: ReadonlySet<string>,
): Promise<ResolvedOrders> {
  const written = writtenState(body);
  const ticked = currentOrders(body, written);
  const changed = ORDER_KINDS.some((kind) => !sameSet(ticked[kind], written[kind]));
  const notes: string[] = [];
  let orders = ticked;
  if (changed) {
    const who = await attribution();
    if (who.kind !== 'writers') {
      const why =
        who.kind === 'not-writers'
          ? `the issue was edited by ${who.logins.map((l) => inertInline(l, 60)).join(', ')}, without write access to the repository`
          : `the run could not tell who edited the issue (${inertInline(who.why, 200)})`;
      notes.push(`Changed checkboxes were ignored: ${why}. Someone with write access can tick them again.`);
      // An editor without write access could have rewritten the marker too: then only the standing skips
      // it records are kept (a forged skip skips, a forged run would spend), and no one-off order runs.
      orders = who.kind === 'not-writers' ? { ...NO_ORDERS, skip: written.skip } : written;
    }
  }
  const keep = (kind: OrderKind) =>
    orders[kind].filter((name) => {
      if (known.has(name)) return true;
      notes.push(`"${ORDER_HEADINGS[kind]}" for \`${name}\` was ignored: no skill of that name was found.`);
      return false;
    });
  return { orders: { run: keep('run'), skip: keep('skip'), 'evals-init': keep('evals-init') }, notes };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}

// ---- The renderer ----

/** The table's share of the body, and the order lists': the rest is the fixed text and the notes. */
const TABLE_BUDGET = 34_000;
const ORDERS_BUDGET = 20_000;
const DUE_BUDGET = 2_000;
const NOTES_BUDGET = 3_000;

const cell = (text: string, max = 200) => inertInline(text, max);
const name = (skill: string) => (isOrderableName(skill) ? `\`${skill}\`` : cell(skill, 100));

function statusText(status: DashboardStatus): string {
  switch (status.kind) {
    case 'shipped':
      return `[#${status.pr}](${status.url}) ${formatGain(status.gain)}`;
    case 'no-improvement':
      return status.detail ? `no improvement (${cell(status.detail, 120)})` : 'no improvement';
    case 'plateau':
      return `plateau (no gain in ${status.nights} nights)`;
    case 'parked':
      return status.url
        ? `parked (${cell(status.parkKind, 40)}): [issue](${status.url})`
        : `parked (${cell(status.parkKind, 40)})`;
    case 'not-shipped':
      return `not shipped: ${cell(status.reason, 160)}`;
    case 'excluded':
      return `excluded: ${cell(status.reason, 120)}${status.next ? `; next: ${cell(status.next, 160)}` : ''}`;
    case 'skipped-by-order':
      return 'skipped (dashboard order, until unchecked)';
    case 'fresh':
      return `fresh until ${status.until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    case 'skipped':
      return cell(status.detail, 160);
    case 'not-run':
      return 'not run yet';
  }
}

/** Skills that need a person first: parked, broken evals, ship failures, exclusions; then the rest. */
const ATTENTION: Readonly<Record<DashboardStatus['kind'], number>> = {
  parked: 0,
  'not-shipped': 1,
  excluded: 2,
  shipped: 3,
  skipped: 4,
  plateau: 5,
  'no-improvement': 6,
  'skipped-by-order': 7,
  fresh: 8,
  'not-run': 9,
};

const STATUS_LABEL: Readonly<Record<DashboardStatus['kind'], string>> = {
  parked: 'parked',
  'not-shipped': 'not shipped',
  excluded: 'excluded',
  shipped: 'shipped',
  skipped: 'skipped',
  plateau: 'plateau',
  'no-improvement': 'no improvement',
  'skipped-by-order': 'skipped by order',
  fresh: 'fresh',
  'not-run': 'not run yet',
};

function byAttention(a: DashboardSkill, b: DashboardSkill): number {
  const findings = (s: DashboardSkill) => (s.findings.length > 0 ? 0 : 1);
  return (
    ATTENTION[a.status.kind] - ATTENTION[b.status.kind] ||
    findings(a) - findings(b) ||
    (a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : 0)
  );
}

function findingsText(findings: DashboardSkill['findings']): string {
  if (findings.length === 0) return '';
  return findings
    .map((f) => `${f.kind}: ${f.assertions.map((id) => `#${id}`).join(', ')}`)
    .join('; ')
    .replace(/#/g, '#\u200D');
}

function row(s: DashboardSkill): string {
  const composite = s.composite === null ? '–' : `${s.composite.toFixed(4)}${s.confirmed ? '' : '*'}`;
  const uplift = s.uplift
    ? `${formatGain(s.uplift.value)}${s.uplift.measurable ? '' : ' (within noise)'}`
    : '–';
  const trend = s.trend.length >= 2 ? renderSparkline(s.trend) : '';
  return `| ${name(s.skill)} | ${composite} | ${trend} | ${uplift} | ${statusText(s.status)} | ${findingsText(s.findings)} |`;
}

/** Lines while they fit `budget` characters; the count of those left out. */
function fitting(lines: readonly string[], budget: number): { shown: string[]; left: number } {
  const shown: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > budget) break;
    shown.push(line);
    used += line.length + 1;
  }
  return { shown, left: lines.length - shown.length };
}

function countsByStatus(skills: readonly DashboardSkill[]): string {
  const counts = new Map<string, number>();
  for (const s of skills)
    counts.set(STATUS_LABEL[s.status.kind], (counts.get(STATUS_LABEL[s.status.kind]) ?? 0) + 1);
  return [...counts].map(([label, n]) => `${n} ${label}`).join(', ');
}

function usd(value: number | null): string {
  return value === null ? 'not reported by the provider' : `$${value.toFixed(2)}`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function orderSection(
  kind: OrderKind,
  skills: readonly string[],
  ticked: ReadonlySet<string>,
  budget: number,
) {
  const orderable = skills.filter(isOrderableName);
  // Standing orders first: they must stay on the page to be unticked.
  const sorted = [...orderable.filter((s) => ticked.has(s)), ...orderable.filter((s) => !ticked.has(s))];
  const { shown, left } = fitting(
    sorted.map((s) => `- [${ticked.has(s) ? 'x' : ' '}] \`${s}\``),
    budget,
  );
  const lines = [
    '<details>',
    `<summary>${ORDER_HEADINGS[kind]}${ticked.size ? ` (${ticked.size} ticked)` : ''}</summary>`,
    '',
    `<!-- skillclimb:orders ${kind} -->`,
    ...shown,
    ...(left > 0
      ? [
          `- _${plural(left, 'more skill')} not listed: add a line \`\` - [x] \`name\` \`\` here to order one_`,
        ]
      : []),
    '<!-- skillclimb:orders-end -->',
    '',
    '</details>',
    '',
  ];
  return lines;
}

/** The whole body, bounded under GitHub's limit for any number of skills. */
export function renderDashboard(input: DashboardInput): string {
  const skills = [...input.skills].sort(byAttention);
  const t = input.totals;
  const marker = dashboardMarker(input.ticked);
  // A long marker (hundreds of standing orders) comes out of the table's share.
  const tableBudget = TABLE_BUDGET - Math.max(0, marker.length - 1_000);
  const when = input.generatedAt.toISOString().slice(0, 16).replace('T', ' ');
  const parts: string[] = [
    marker,
    `Rewritten at the end of every night of skillclimb skill-iterate. Last night: ${when} UTC` +
      (input.runUrl ? ` ([workflow run](${input.runUrl}))` : '') +
      '.',
    '',
    '## Last night',
    '',
    `${plural(t.ran, 'skill')} run, ${t.shipped} shipped, ${t.parked} parked; ${plural(t.calls, 'model call')}, ` +
      `${t.tokens.toLocaleString('en-US')} tokens, cost ${usd(t.costUsd)}.` +
      (t.partial ? ` The night stopped early: ${cell(t.partial, 300)}.` : ''),
    '',
    ...(t.economics ?? []).flatMap((line) => [line, '']),
  ];
  if (input.orderNotes.length > 0) {
    parts.push('### Orders', '');
    parts.push(
      ...fitting(
        input.orderNotes.map((n) => `- ${n}`),
        NOTES_BUDGET,
      ).shown,
      '',
    );
  }

  parts.push(`## Skills (${skills.length})`, '');
  if (skills.length === 0) {
    parts.push('No skill folder matched the skills setting.', '');
  } else {
    const { shown, left } = fitting(skills.map(row), tableBudget);
    parts.push(
      '| Skill | Composite | Trend | Uplift | Status | Eval findings |',
      '| --- | ---: | --- | ---: | --- | --- |',
      ...shown,
      '',
    );
    if (left > 0) {
      parts.push(
        `_${plural(left, 'more skill')} not listed (${countsByStatus(skills.slice(shown.length))})._`,
        '',
      );
    }
    parts.push(
      "_Composite: the last confirmed composite score (\\* the night's own score, not re-measured). Trend: the " +
        'final composite of each recent night, oldest first. Uplift: pass rate with the skill minus without it._',
      '',
    );
  }

  const violations = input.specViolations ?? [];
  if (violations.length > 0) {
    // The file names and the values quoted come from the repository: inert, each on its line.
    const list = fitting(
      violations.map((v) => `- ${cell(v, 300)}`),
      NOTES_BUDGET,
    );
    parts.push(
      '## Agent Skills specification',
      '',
      `${plural(violations.length, 'rule')} of the [specification](https://agentskills.io/specification) ` +
        'broken (the skills still run; an edit that would break one more is never kept):',
      '',
      ...list.shown,
      ...(list.left > 0 ? [`- … and ${list.left} more`] : []),
      '',
    );
  }

  const due = input.nextNight.due;
  parts.push('## Next night', '');
  if (input.nextNight.budget) parts.push(cell(input.nextNight.budget, 2_000), '');
  if (due.length === 0) {
    parts.push(
      `No skill would be due if the next night starts ${input.nextNight.assumedHours} h after this one.`,
      '',
    );
  } else {
    const list = fitting(due.map(name), DUE_BUDGET);
    parts.push(
      `${plural(due.length, 'skill')} due if it starts ${input.nextNight.assumedHours} h after this one: ` +
        `${list.shown.join(', ')}${list.left > 0 ? ` and ${list.left} more` : ''}.`,
      '',
    );
  }

  parts.push(
    '## Orders for the next night',
    '',
    'Tick a box: the next night reads it, honours it and clears it; "skip" stays until you untick it. ' +
      'Only edits by users with write access count.',
    '',
  );
  // Alphabetical, to be found; a skill that cannot be scored gets only the evals-init box.
  const names = skills.map((s) => s.skill).sort();
  const scorable = new Set(skills.filter((s) => s.status.kind !== 'excluded').map((s) => s.skill));
  for (const kind of ORDER_KINDS) {
    const listed = kind === 'evals-init' ? names : names.filter((n) => scorable.has(n));
    parts.push(...orderSection(kind, listed, new Set(input.ticked[kind]), ORDERS_BUDGET / 3));
  }
  return postable(parts.join('\n'));
}
