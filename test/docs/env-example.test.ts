/** `.env.example` (the local-action route, docs/action.md) lists every input action.yml declares. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

describe('.env.example', () => {
  it('has an INPUT_<NAME> line for every input of action.yml, and none it does not declare', async () => {
    const action = parse(await readFile('action.yml', 'utf8')) as { inputs: Record<string, unknown> };
    const declared = Object.keys(action.inputs).map((name) => `INPUT_${name.toUpperCase()}`);
    const lines = (await readFile('.env.example', 'utf8')).split('\n');
    const listed = lines.flatMap((line) => /^(INPUT_[A-Z0-9-]+)=/.exec(line)?.[1] ?? []);
    expect(declared).toContain('INPUT_SKILLS');
    expect([...listed].sort()).toEqual([...declared].sort());
    // Once each: a second line would silently win over the first.
    expect(new Set(listed).size).toBe(listed.length);
  });
});
