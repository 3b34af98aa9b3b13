/** Command parsing, the role check and the configuration, without GitHub. */
import { describe, expect, it } from 'vitest';
import { applyStartOptions, readAppEnv, settingsFrom, validateRepoConfig } from '../../src/app/config.js';
import { parseCommand } from '../../src/app/validation/command.js';
import { commandEventFrom } from '../../src/app/validation/event.js';
import { admittedRoles, isRoleAllowed, roleOf } from '../../src/app/validation/permission.js';
import { isBotSender } from '../../src/app/validation/sender.js';
import { APP_ID, SETTINGS, commentPayload } from '../helpers/app-fixtures.js';

describe('parseCommand', () => {
  it.each([
    ['/review-loop', { kind: 'start', options: {} }],
    [
      '/review-loop difficulty: hard rounds: 3 fix: manual checkpoint: on preset: research\nmore text',
      {
        kind: 'start',
        options: { difficulty: 'hard', rounds: 3, fix: 'manual', checkpoint: true, preset: 'research' },
      },
    ],
    ['/review-loop go', { kind: 'go' }],
    ['/review-loop continue\r\n', { kind: 'continue' }],
    ['/review-loop skip 3,1, 3', { kind: 'skip', items: [1, 3] }],
    ['/review-loop stop', { kind: 'stop' }],
    ['  /review-loop status', { kind: 'status' }],
    ['/review-loop help', { kind: 'help' }],
    ['/Review-Loop Status', { kind: 'status' }],
    [
      '/review-loop note: please keep the API stable\nand add a test',
      { kind: 'guidance', text: 'please keep the API stable\nand add a test' },
    ],
    ['/review-loop Note:the cache is intentional', { kind: 'guidance', text: 'the cache is intentional' }],
  ])('%j', (body, command) => {
    expect(parseCommand(body)).toEqual({ status: 'ok', command });
  });

  it.each([
    ['/review-loop difficulty: extreme', '`difficulty` must be medium, hard, nightmare'],
    ['/review-loop rounds: 0', '`rounds` must be a whole number of at least 1; got `0`'],
    ['/review-loop rounds: 3 rounds: 4', 'option `rounds` is given twice'],
    ['/review-loop fix: auto colour: red', '`colour` is not an option'],
    ['/review-loop colour: red', '`colour` is not an option'],
    ['/review-loop rounds 3', 'options take a colon, e.g. `rounds: 3`'],
    ['/review-loop please keep the API stable', '`please` is not a command'],
    ['/review-loop note:', '`note:` needs the text of the note'],
    ['/review-loop fix: auto please', 'expected `key: value` options'],
    ['/review-loop skip', '`skip` needs the numbers'],
    ['/review-loop skip one', '`skip` takes weakness numbers'],
    ['/review-loop stop now', '`stop` takes no arguments'],
  ])('%j is malformed', (body, problem) => {
    const parsed = parseCommand(body);
    expect(parsed.status).toBe('malformed');
    expect(parsed.status === 'malformed' && parsed.problem).toContain(problem);
  });

  it.each([
    '/review-loops',
    '/Review-Loops go',
    'please run /review-loop',
    '> /review-loop',
    '',
    'second line\n/review-loop',
  ])('%j is not a command', (body) => expect(parseCommand(body)).toEqual({ status: 'none' }));
});

describe('who may run it', () => {
  it('prefers role_name, falls back to permission, and matches the configured set', () => {
    expect(roleOf({ role_name: 'maintain', permission: 'write' })).toBe('maintain');
    expect(roleOf({ role_name: null, permission: 'write' })).toBe('write');
    expect(roleOf({})).toBe('none');
    expect(isRoleAllowed('triage', ['admin', 'maintain', 'write'])).toBe(false);
    expect(isRoleAllowed('Write', ['admin', 'maintain', 'write'])).toBe(true);
  });

  it('reads allowed_roles as a minimum built-in role (or a custom role by name) and never locks out admins', () => {
    // `[read]` is read and above: writers, maintainers and admins are not locked out
    for (const role of ['read', 'triage', 'write', 'maintain', 'admin']) {
      expect(isRoleAllowed(role, ['read'])).toBe(true);
    }
    expect(isRoleAllowed('none', ['read'])).toBe(false);
    expect(admittedRoles(['write'])).toEqual(['admin', 'maintain', 'write']);
    expect(admittedRoles(['triage'])).toEqual(['admin', 'maintain', 'write', 'triage']);
    // a custom role admits exactly itself; admin stays admitted whatever the list
    expect(admittedRoles(['security-reviewer'])).toEqual(['admin', 'security-reviewer']);
    expect(isRoleAllowed('write', ['security-reviewer'])).toBe(false);
    expect(isRoleAllowed('admin', ['security-reviewer'])).toBe(true);
    expect(admittedRoles(['admin'])).toEqual(['admin']);
  });

  it('treats Bot senders and [bot] logins as bots', () => {
    expect(isBotSender({ login: 'someone', type: 'Bot' })).toBe(true);
    expect(isBotSender({ login: 'my-app[bot]', type: 'User' })).toBe(true);
    expect(isBotSender({ login: 'octocat', type: 'User' })).toBe(false);
  });
});

describe('commandEventFrom: the bot and own-comment gate (docs/how-it-works.md § The App)', () => {
  const app = { appId: APP_ID };

  it.each([
    ["the App's own comment (performed_via_github_app is the App)", { byApp: true }, "the App's own comment"],
    ['a sender of type Bot', { sender: { login: 'renovate', type: 'Bot' as const } }, 'bot sender renovate'],
    [
      'a `[bot]` login typed as a user',
      { sender: { login: 'dependabot[bot]', type: 'User' as const } },
      'bot sender dependabot[bot]',
    ],
  ])('ignores %s', (_name, options, reason) => {
    const payload = commentPayload({ body: '/review-loop', ...options });
    expect(commandEventFrom(payload, 'd1', app)).toEqual({ kind: 'ignored', reason });
  });

  it("takes a human's command, and another App's comment is not the App's own", () => {
    const payload = commentPayload({ body: '/review-loop rounds: 2', sender: { login: 'maintainer' } });
    expect(commandEventFrom(payload, 'd1', app)).toMatchObject({
      kind: 'command',
      delivery: 'd1',
      commentId: 101,
      sender: { login: 'maintainer', type: 'User' },
      parsed: { status: 'ok', command: { kind: 'start', options: { rounds: 2 } } },
    });
    // the stamp of another App on a human's comment does not make it ours
    payload.comment.performed_via_github_app = { id: APP_ID + 1 };
    expect(commandEventFrom(payload, 'd1', app)).toMatchObject({ kind: 'command' });
  });
});

describe('configuration', () => {
  it('names the field of a bad value and of an unknown key', () => {
    expect(validateRepoConfig({ budget: { max_cost_usd: 'five' } })).toMatchObject({
      ok: false,
      problems: ['`budget.max_cost_usd` must be a number of US dollars above 0; it is `"five"`'],
    });
    expect(validateRepoConfig({ round: 3 })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('`round` is not a field of this file'),
    });
    expect(validateRepoConfig({ reviewer_model: 'gpt-5' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('`reviewer_model`: model id "gpt-5"'),
    });
    expect(validateRepoConfig({ rounds: 0, fix: 'x' })).toMatchObject({
      ok: false,
      problems: [
        '`rounds` must be a whole number from 1 to 20; it is `0`',
        '`fix` must be one of auto, manual, none; it is `"x"`',
      ],
    });
    expect(validateRepoConfig(null)).toEqual({ ok: true, config: {} });
  });

  it('lets a repository lower budgets but never raise them over the App’s ceilings', () => {
    const settings = settingsFrom({ budget: { max_tokens: 10, max_cost_usd: 100 }, rounds: 6 }, SETTINGS);
    expect(settings.budget).toEqual({ maxTokens: 10, maxCostUsd: SETTINGS.maxCostUsd });
    expect(settings.rounds).toBe(6);
    expect(settingsFrom({}, SETTINGS)).toMatchObject({
      rounds: 4,
      fix: 'auto',
      difficulty: 'medium',
      reviewEvent: 'comment',
    });
  });

  it('makes fork PRs manual and refuses rounds over the budget', () => {
    const base = settingsFrom({}, SETTINGS);
    const fork = applyStartOptions(base, { fix: 'auto' }, { isFork: true, maxRounds: 10 });
    expect(fork.ok && fork.settings.fix).toBe('manual');
    expect(applyStartOptions(base, { rounds: 12 }, { isFork: false, maxRounds: 10 })).toMatchObject({
      ok: false,
    });
  });

  it('reads the environment and names a bad variable', () => {
    expect(
      readAppEnv({ REVIEW_LOOP_REVIEWER_MODEL: 'openai:gpt-5', REVIEW_LOOP_CONCURRENCY: '3' }),
    ).toMatchObject({
      reviewerModel: 'openai:gpt-5',
      concurrency: 3,
    });
    expect(() => readAppEnv({ REVIEW_LOOP_MAX_COST_USD: 'lots' })).toThrow(/REVIEW_LOOP_MAX_COST_USD/);
    expect(() => readAppEnv({ REVIEW_LOOP_EXECUTOR_MODEL: 'nonsense' })).toThrow(
      /REVIEW_LOOP_EXECUTOR_MODEL/,
    );
  });
});
