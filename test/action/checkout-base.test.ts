import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutBaseNote } from '../../src/action/checkout-base.js';
import { actionsCheckout, cleanupTempDirs, git, makeRemote, tempDir } from '../helpers/github-fixtures.js';

const FILES = { '.claude/skills/alpha/SKILL.md': '# alpha\n' };

afterEach(cleanupTempDirs);

describe('checkoutBaseNote', () => {
  it('says nothing when the checkout is the base branch (schedule, or a dispatch on it)', async () => {
    const { checkout } = await makeRemote(FILES, { checkout: 'actions' });
    expect(await checkoutBaseNote(checkout, 'main')).toBeUndefined();
    // From a project folder inside the repository too.
    expect(await checkoutBaseNote(path.join(checkout, '.claude'), 'main')).toBeUndefined();
  });

  it('names the other branch a workflow_dispatch checked out, and where the PRs go', async () => {
    const { origin, checkout } = await makeRemote(FILES);
    git(checkout, 'push', '--quiet', 'origin', 'HEAD:refs/heads/try-it');
    const onBranch = actionsCheckout(origin, path.join(await tempDir(), 'ws'), { branch: 'try-it' });
    const sha = git(onBranch, 'rev-parse', 'HEAD').slice(0, 7);

    expect(await checkoutBaseNote(onBranch, 'main')).toBe(
      `the checkout is try-it at ${sha}, not main: skills are iterated as checked out; ` +
        "each pull request carries only the skill's changes onto main",
    );
  });

  it('names a detached HEAD (ref: <sha>)', async () => {
    const { origin } = await makeRemote(FILES);
    const sha = git(origin, 'rev-parse', 'main');
    const detached = actionsCheckout(origin, path.join(await tempDir(), 'ws'), { commit: sha });

    expect(await checkoutBaseNote(detached, 'main')).toMatch(
      new RegExp(`^the checkout is a detached HEAD at ${sha.slice(0, 7)}, not main: `),
    );
  });
});
