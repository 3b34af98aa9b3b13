/**
 * The dashboard's renderer and checkbox parser (src/action/dashboard-body.ts), pure: the body for a
 * night, read back by the parser; edits elsewhere in the issue change nothing; ticks count only when
 * attributed to writers; hostile repository text stays inert; 500 skills stay under GitHub's limit.
 */
import { describe, expect, it } from 'vitest';
import {
  NO_ORDERS,
  parseOrders,
  renderDashboard,
  resolveOrders,
  writtenState,
  type DashboardInput,
  type DashboardSkill,
  type EditAttribution,
} from '../../src/action/dashboard-body.js';
import { GITHUB_BODY_LIMIT } from '../../src/core/text/body-limit.js';
import { renderSparkline } from '../../src/github/action/score-chart.js';
import { HOSTILE, liveParts } from '../helpers/markdown-liveness.js';

const NOW = new Date('2026-05-24T03:00:00Z');

function skill(name: string, overrides: Partial<DashboardSkill> = {}): DashboardSkill {
  return {
    skill: name,
    composite: 0.8125,
    confirmed: true,
    trend: [0.7, 0.75, 0.8125],
    uplift: { value: 0.25, measurable: true },
    status: { kind: 'no-improvement' },
    findings: [],
    ...overrides,
  };
}

function input(overrides: Partial<DashboardInput> = {}): DashboardInput {
  return {
    generatedAt: NOW,
    runUrl: 'https://github.test/acme/skills/actions/runs/77',
    skills: [
      skill('alpha', {
        status: { kind: 'shipped', pr: 12, url: 'https://github.test/acme/skills/pull/12', gain: 0.0625 },
      }),
      skill('beta', {
        status: { kind: 'parked', parkKind: 'crashes', url: 'https://github.test/acme/skills/issues/7' },
        findings: [
          { kind: 'flaky', assertions: [2, 5] },
          { kind: 'never passing', assertions: [3] },
        ],
      }),
      skill('gamma', {
        status: { kind: 'fresh', until: new Date('2026-05-24T20:00:00Z') },
        uplift: undefined,
      }),
      skill('delta', {
        composite: null,
        trend: [],
        uplift: undefined,
        status: {
          kind: 'excluded',
          reason: 'no evals',
          next: 'run `skillclimb evals init delta` to write them',
        },
      }),
    ],
    totals: { ran: 2, shipped: 1, parked: 1, calls: 42, tokens: 123456, costUsd: 0.5 },
    nextNight: { due: ['alpha', 'beta'], assumedHours: 24 },
    ticked: { run: [], skip: ['gamma'], 'evals-init': [] },
    orderNotes: [],
    ...overrides,
  };
}

const writers = (): Promise<EditAttribution> => Promise.resolve({ kind: 'writers', logins: ['maintainer'] });
const KNOWN = new Set(['alpha', 'beta', 'gamma', 'delta']);

/** Ticks `box` in `kind`'s section of a rendered body, as a click on GitHub does. */
function tick(body: string, kind: string, name: string): string {
  const start = body.indexOf(`<!-- skillclimb:orders ${kind} -->`);
  const line = body.indexOf(`- [ ] \`${name}\``, start);
  expect(line, `${kind} ${name}`).toBeGreaterThan(start);
  return `${body.slice(0, line)}- [x]${body.slice(line + 5)}`;
}

describe('renderDashboard', () => {
  it('shows every skill with its composite, trend, uplift, status and findings, the totals and the next night', () => {
    const body = renderDashboard(input());
    expect(body.split('\n')[0]).toBe('<!-- skillclimb:dashboard skip=gamma -->');
    expect(body).toContain('2 skills run, 1 shipped, 1 parked; 42 model calls, 123,456 tokens, cost $0.50.');
    expect(body).toContain(
      `| \`alpha\` | 0.8125 | ${renderSparkline([0.7, 0.75, 0.8125])} | +0.2500 | [#12](https://github.test/acme/skills/pull/12) +0.0625 |  |`,
    );
    expect(body).toContain('parked (crashes): [issue](https://github.test/acme/skills/issues/7)');
    expect(body).toMatch(/flaky: #\u200D2, #\u200D5; never passing: #\u200D3/);
    expect(body).toContain('fresh until 2026-05-24 20:00 UTC');
    expect(body).toContain(
      'excluded: no evals; next: run &#96;skillclimb evals init delta&#96; to write them',
    );
    expect(body).toContain('2 skills due if it starts 24 h after this one: `alpha`, `beta`.');
    // Parked first, then the exclusion, then the shipped skill.
    expect(body.indexOf('| `beta`')).toBeLessThan(body.indexOf('| `delta`'));
    expect(body.indexOf('| `delta`')).toBeLessThan(body.indexOf('| `alpha`'));
    // The standing skip is written ticked; the one-off boxes unticked.
    expect(body).toContain('- [x] `gamma`');
    expect(parseOrders(body)).toEqual({ run: [], skip: ['gamma'], 'evals-init': [] });
  });

  it('renders repository and model text inert', () => {
    const skills = HOSTILE.map((text, i) =>
      skill(`s${i}`, {
        status:
          i % 2 ? { kind: 'excluded', reason: text, next: text } : { kind: 'not-shipped', reason: text },
      }),
    );
    skills.push(skill('@octocat <b>x</b>', { status: { kind: 'skipped', detail: HOSTILE.join(' ') } }));
    const body = renderDashboard(
      input({
        skills,
        runUrl: undefined,
        orderNotes: [],
        totals: { ...input().totals, partial: HOSTILE[0] },
      }),
    );
    // The Action's own structure (the marker, the collapsible order lists) is the only HTML.
    const structure = /^(<!-- skillclimb:[^>]*-->|<\/?details>|<summary>[^<]*<\/summary>)$/;
    const text = body
      .split('\n')
      .filter((line) => !structure.test(line))
      .join('\n');
    expect(liveParts(text)).toEqual([]);
    // A name that cannot be read back gets no checkbox.
    expect(body).not.toContain('- [ ] `@octocat');
  });

  it("stays under GitHub's body limit with 500 skills, collapsing the rest with counts", () => {
    const skills = Array.from({ length: 500 }, (_, i) =>
      skill(`skill-with-a-long-name-${String(i).padStart(3, '0')}`, {
        status:
          i % 3 === 0
            ? { kind: 'not-shipped', reason: 'x'.repeat(400) }
            : i % 3 === 1
              ? { kind: 'fresh', until: NOW }
              : { kind: 'no-improvement', detail: 'gain +0.0010 below the minimum gain 0.005' },
        findings: [{ kind: 'flaky', assertions: [1, 2, 3, 4, 5, 6, 7, 8] }],
      }),
    );
    const due = skills.map((s) => s.skill);
    const body = renderDashboard(
      input({ skills, nextNight: { due, assumedHours: 24 }, ticked: { ...NO_ORDERS, skip: [due[499]!] } }),
    );
    expect(body.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(body).toContain('## Skills (500)');
    const listed = (body.match(/^\| `skill-with/gm) ?? []).length;
    expect(listed).toBeGreaterThan(50);
    expect(listed).toBeLessThan(500);
    expect(body).toMatch(
      new RegExp(`_${500 - listed} more skills not listed \\(\\d+ (not shipped|fresh|no improvement)`),
    );
    // The standing order is shown (first) however many skills there are, and read back.
    expect(parseOrders(body).skip).toEqual([due[499]]);
    expect(body).toMatch(/and \d+ more\./);
    expect(body).not.toContain('characters were cut');
  });
  it('keeps hundreds of standing skips under the limit, and reads them back unchanged though not all are listed', async () => {
    const names = Array.from({ length: 500 }, (_, i) => `skipped-skill-number-${String(i).padStart(3, '0')}`);
    const body = renderDashboard(
      input({
        skills: names.map((n) => skill(n, { status: { kind: 'skipped-by-order' } })),
        ticked: { ...NO_ORDERS, skip: names },
      }),
    );
    expect(body.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(body).not.toContain('characters were cut');
    expect(parseOrders(body).skip.length).toBeLessThan(500);
    const never = () => Promise.reject(new Error('nothing changed: no one needs to be asked'));
    const resolved = await resolveOrders(body, never, new Set(names));
    expect([...resolved.orders.skip].sort()).toEqual(names);
    expect(resolved.notes).toEqual([]);
  });
});

describe('parseOrders and resolveOrders', () => {
  it('reads the ticked boxes of each section and nothing outside them, whatever a person edited around them', async () => {
    let body = renderDashboard(input());
    body = tick(body, 'run', 'alpha');
    body = tick(body, 'evals-init', 'delta');
    // A person's note on top, a reworded heading, a task list of their own, a fenced example, CRLF lines.
    const edited = [
      body.split('\n')[0],
      '- [x] `beta` my own to-do, not an order',
      ...body
        .split('\n')
        .slice(1)
        .map((line) => line.replace('## Orders for the next night', '## What we want tonight')),
      '```',
      '<!-- skillclimb:orders run -->',
      '- [x] `gamma`',
      '```',
    ].join('\r\n');
    expect(parseOrders(edited)).toEqual({ run: ['alpha'], skip: ['gamma'], 'evals-init': ['delta'] });

    const resolved = await resolveOrders(edited, writers, KNOWN);
    expect(resolved).toEqual({
      orders: { run: ['alpha'], skip: ['gamma'], 'evals-init': ['delta'] },
      notes: [],
    });
  });

  it('keeps what the Action wrote when the editor has no write access, or cannot be told, and says so', async () => {
    const written = renderDashboard(input());
    const body = tick(tick(written, 'run', 'alpha'), 'skip', 'beta');
    const readOnly = await resolveOrders(
      body,
      () => Promise.resolve({ kind: 'not-writers', logins: ['drive-by'] }),
      KNOWN,
    );
    expect(readOnly.orders).toEqual({ run: [], skip: ['gamma'], 'evals-init': [] });
    expect(readOnly.notes).toEqual([
      'Changed checkboxes were ignored: the issue was edited by drive-by, without write access to the repository. ' +
        'Someone with write access can tick them again.',
    ]);
    const unknown = await resolveOrders(
      body,
      () => Promise.resolve({ kind: 'unknown', why: 'HTTP 502' }),
      KNOWN,
    );
    expect(unknown.orders.run).toEqual([]);
    expect(unknown.notes[0]).toContain('could not tell who edited the issue (HTTP 502)');
  });

  it('runs no one-off order recorded in a marker an editor without write access may have rewritten', async () => {
    const body = renderDashboard(
      input({ ticked: { run: ['alpha'], skip: ['gamma'], 'evals-init': ['delta'] } }),
    );
    expect(writtenState(body)).toEqual({ run: ['alpha'], skip: ['gamma'], 'evals-init': ['delta'] });
    const edited = body.replace('- [x] `gamma`', '- [ ] `gamma`');
    const readOnly = await resolveOrders(
      edited,
      () => Promise.resolve({ kind: 'not-writers', logins: ['x'] }),
      KNOWN,
    );
    expect(readOnly.orders).toEqual({ run: [], skip: ['gamma'], 'evals-init': [] });
    // Unchanged, the boxes the Action wrote ticked (a matrix's pending orders) count as they are.
    expect((await resolveOrders(body, writers, KNOWN)).orders).toEqual({
      run: ['alpha'],
      skip: ['gamma'],
      'evals-init': ['delta'],
    });
  });

  it('asks who edited only when a box changed, and drops orders for skills that are gone', async () => {
    let asked = 0;
    const counting = () => (asked++, writers());
    const body = renderDashboard(input());
    expect((await resolveOrders(body, counting, KNOWN)).orders.skip).toEqual(['gamma']);
    expect(asked).toBe(0);
    const gone = await resolveOrders(tick(body, 'run', 'alpha'), counting, new Set(['beta', 'gamma']));
    expect(asked).toBe(1);
    expect(gone.orders.run).toEqual([]);
    expect(gone.notes).toEqual([
      '"Run on the next night (ignore freshness)" for `alpha` was ignored: no skill of that name was found.',
    ]);
    expect(writtenState('not a dashboard')).toEqual(NO_ORDERS);
  });

  it('takes an unticked standing skip as an order too (attributed like a tick)', async () => {
    const body = renderDashboard(input()).replace('- [x] `gamma`', '- [ ] `gamma`');
    expect((await resolveOrders(body, writers, KNOWN)).orders.skip).toEqual([]);
    const ignored = await resolveOrders(
      body,
      () => Promise.resolve({ kind: 'not-writers', logins: ['x'] }),
      KNOWN,
    );
    expect(ignored.orders.skip).toEqual(['gamma']);
  });
});

describe('renderSparkline', () => {
  it('scales between the lowest and the highest value; a flat series is a flat line', () => {
    expect(renderSparkline([0, 0.5, 1])).toBe('▁▅█');
    expect(renderSparkline([0.4, 0.4])).toBe('▄▄');
  });
});
