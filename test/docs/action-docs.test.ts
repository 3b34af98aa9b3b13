import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempDirs } from '../helpers/temp-dirs.js';

const run = promisify(execFile);
const SCRIPT = path.resolve('scripts/action-docs.mjs');
const temp = tempDirs('skillclimb-action-docs-', { resolveLinks: true });

afterEach(() => temp.removeAll());

interface ActionSpec {
  inputs: Record<string, { description: string }>;
  outputs: Record<string, { description: string }>;
}

/** Runs the generator as `npm run lint` does; resolves exit code and output instead of throwing. */
async function actionDocs(root: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, '--root', root, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A copy of what the script reads: action.yml, docs/action.md and the prettier config. */
async function copyOfRepo(): Promise<string> {
  const root = await temp.make();
  await mkdir(path.join(root, 'docs'));
  for (const file of ['action.yml', 'docs/action.md', '.prettierrc.json']) {
    await copyFile(file, path.join(root, file));
  }
  return root;
}

function generated(doc: string, table: 'inputs' | 'outputs'): string {
  const start = doc.indexOf(`<!-- action-docs:start ${table} -->`);
  const end = doc.indexOf(`<!-- action-docs:end ${table} -->`);
  expect(start, `docs/action.md has no ${table} start marker`).toBeGreaterThanOrEqual(0);
  expect(end, `docs/action.md has no ${table} end marker`).toBeGreaterThan(start);
  return doc.slice(start, end);
}

describe('docs/action.md inputs and outputs tables', () => {
  it('the committed page passes the check that `npm run lint` runs', async () => {
    const result = await actionDocs(path.resolve('.'), '--check');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('lists every input and output of action.yml, each in its own row', async () => {
    const action = parse(await readFile('action.yml', 'utf8')) as ActionSpec;
    const doc = await readFile('docs/action.md', 'utf8');
    for (const table of ['inputs', 'outputs'] as const) {
      const rows = generated(doc, table)
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .map((line) => /^\| `([^`]+)`/.exec(line)?.[1]);
      expect(rows).toEqual(Object.keys(action[table]));
    }
  });

  it('fails the check when action.yml changed and the page did not, then regenerates it', async () => {
    const root = await copyOfRepo();
    const actionFile = path.join(root, 'action.yml');
    const before = await readFile(actionFile, 'utf8');
    const changed = before.replace(
      'Iteration cap per skill.',
      'Iteration cap per skill (the baseline is not one).',
    );
    expect(changed).not.toBe(before);
    await writeFile(actionFile, changed);

    const stale = await actionDocs(root, '--check');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('docs/action.md is stale');
    expect(stale.stderr).toContain('npm run docs:action');

    const write = await actionDocs(root);
    expect(write.code).toBe(0);
    const doc = await readFile(path.join(root, 'docs/action.md'), 'utf8');
    expect(generated(doc, 'inputs')).toContain('Iteration cap per skill (the baseline is not one).');
    expect((await actionDocs(root, '--check')).code).toBe(0);
  });

  it('fails the check when a generated row was edited by hand', async () => {
    const root = await copyOfRepo();
    const docFile = path.join(root, 'docs/action.md');
    const doc = await readFile(docFile, 'utf8');
    const edited = doc.replace(/^\| `dry-run` .*$/m, '| `dry-run` | `true` | Edited by hand. |');
    expect(edited).not.toBe(doc);
    await writeFile(docFile, edited);
    const result = await actionDocs(root, '--check');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('docs/action.md is stale');
  });

  it('names the missing marker when a table has nowhere to go', async () => {
    const root = await copyOfRepo();
    const docFile = path.join(root, 'docs/action.md');
    await writeFile(
      docFile,
      (await readFile(docFile, 'utf8')).replace('<!-- action-docs:end outputs -->', ''),
    );
    const result = await actionDocs(root, '--check');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('<!-- action-docs:end outputs -->');
  });
});
