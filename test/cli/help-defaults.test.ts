/**
 * Every command's help states each option's default once (issue 29 item 6): a description that says
 * "(default: the config, else 3)" beside commander's own `(default: "1")` tells the reader two things.
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureIo } from '../helpers/skill-project.js';

async function help(argv: string[]): Promise<string> {
  const io = captureIo(os.tmpdir());
  await main([...argv, '--help'], io);
  return io.stdout();
}

/** The help's option entries, each with its wrapped continuation lines. */
function optionEntries(text: string): string[] {
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    if (/^ {2}-/.test(line)) entries.push(line.trim());
    else if (/^ {3,}\S/.test(line) && entries.length > 0) entries[entries.length - 1] += ` ${line.trim()}`;
  }
  return entries;
}

describe('help: one default per option', () => {
  it('holds for every command and subcommand', async () => {
    const top = await help([]);
    const commands = Array.from(top.matchAll(/^ {2}([a-z][a-z-]*)\b/gm), (m) => m[1]!).filter(
      (c) => c !== 'help',
    );
    expect(commands).toEqual(expect.arrayContaining(['iterate', 'score', 'evals', 'doctor']));
    const argvs = commands.map((c) => [c]);
    argvs.push(['evals', 'init']);
    const doubled: string[] = [];
    for (const argv of argvs) {
      for (const entry of optionEntries(await help(argv))) {
        if ((entry.match(/\(default\b/g) ?? []).length > 1) doubled.push(`${argv.join(' ')}: ${entry}`);
      }
    }
    expect(doubled).toEqual([]);
  });
});
