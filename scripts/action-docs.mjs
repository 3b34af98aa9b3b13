#!/usr/bin/env node
/**
 * The inputs and outputs tables of docs/action.md, generated from action.yml so the two never disagree.
 *
 *   npm run docs:action                     rewrite the tables between the marker comments
 *   node scripts/action-docs.mjs --check    exit 1 when docs/action.md is stale (part of `npm run lint`)
 *
 * Each table sits between `<!-- action-docs:start NAME -->` and `<!-- action-docs:end NAME -->` (NAME is
 * `inputs` or `outputs`); everything outside the markers is hand-written. The whole page is then run through
 * prettier with the repository's config, so the committed file is exactly what this script writes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { parse } from 'yaml';

export const ACTION_FILE = 'action.yml';
export const DOC_FILE = 'docs/action.md';
export const TABLES = ['inputs', 'outputs'];

/** A cell: one line, pipes escaped, whitespace of folded YAML collapsed. */
function cell(text) {
  return String(text).replace(/\s+/g, ' ').trim().replaceAll('|', '\\|');
}

function code(text) {
  const value = String(text);
  const fence = value.includes('`') ? '``' : '`';
  return `${fence}${value}${fence}`;
}

/** The Markdown table of one section of action.yml (`inputs` or `outputs`). */
export function renderTable(action, section) {
  const entries = Object.entries(action[section] ?? {});
  if (entries.length === 0) throw new Error(`${ACTION_FILE}: no ${section}`);
  if (section === 'inputs') {
    const rows = entries.map(([name, spec]) => {
      const fallback = spec?.default === undefined || spec.default === '' ? '' : code(spec.default);
      const required = spec?.required === true ? ' **Required.**' : '';
      return `| ${code(name)} | ${cell(fallback)} | ${cell(spec?.description ?? '')}${required} |`;
    });
    return ['| input | default | description |', '| --- | --- | --- |', ...rows].join('\n');
  }
  const rows = entries.map(([name, spec]) => `| ${code(name)} | ${cell(spec?.description ?? '')} |`);
  return ['| output | description |', '| --- | --- |', ...rows].join('\n');
}

function markers(name) {
  return {
    start: `<!-- action-docs:start ${name} -->`,
    end: `<!-- action-docs:end ${name} -->`,
  };
}

/** `doc` with every generated table replaced, before formatting. Throws naming a missing marker. */
export function spliceTables(doc, action) {
  let out = doc;
  for (const name of TABLES) {
    const { start, end } = markers(name);
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from === -1 || to === -1 || to < from) {
      throw new Error(`${DOC_FILE}: missing "${start}" … "${end}" (the ${name} table goes between them)`);
    }
    out = `${out.slice(0, from + start.length)}\n\n${renderTable(action, name)}\n\n${out.slice(to)}`;
  }
  return out;
}

/** The page as this script would write it: tables spliced in, then prettier with the repository's config. */
export async function renderActionDocs(actionText, docText, root) {
  const action = parse(actionText);
  const docPath = path.join(root, DOC_FILE);
  const options = (await prettier.resolveConfig(docPath)) ?? {};
  return prettier.format(spliceTables(docText, action), { ...options, filepath: docPath });
}

/** Regenerates docs/action.md under `root`, or with `check` only compares. Returns a message and a code. */
export async function actionDocs(root, { check }) {
  const actionText = await readFile(path.join(root, ACTION_FILE), 'utf8');
  const docText = await readFile(path.join(root, DOC_FILE), 'utf8');
  const expected = await renderActionDocs(actionText, docText, root);
  if (expected === docText)
    return { code: 0, message: `${DOC_FILE}: inputs and outputs match ${ACTION_FILE}` };
  if (check) {
    return {
      code: 1,
      message: `${DOC_FILE} is stale: its inputs/outputs tables differ from ${ACTION_FILE}; run \`npm run docs:action\` and commit it`,
    };
  }
  await writeFile(path.join(root, DOC_FILE), expected);
  return { code: 0, message: `${DOC_FILE}: tables regenerated from ${ACTION_FILE}` };
}

async function main(argv) {
  const check = argv.includes('--check');
  const at = argv.indexOf('--root');
  const root =
    at === -1 ? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..') : path.resolve(argv[at + 1]);
  try {
    const { code: exitCode, message } = await actionDocs(root, { check });
    (exitCode === 0 ? console.log : console.error)(message);
    process.exitCode = exitCode;
  } catch (error) {
    console.error(`action-docs: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
