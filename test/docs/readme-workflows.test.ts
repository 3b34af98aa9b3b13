import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/**
 * The copy-pasteable workflows of the README and docs/action.md are the example workflows of .github/workflows/, as a user would
 * write them: `uses: ./` (this repository runs its own checkout) becomes the published action, and the
 * comment that explains exactly that is left out.
 */
function asPublished(workflow: string): string {
  const kept: string[] = [];
  let skipping = false;
  for (const line of workflow.split('\n')) {
    if (line.startsWith('# In your own repository')) {
      skipping = true;
      continue;
    }
    if (skipping && line.startsWith('#') && line !== '#') continue;
    skipping = false;
    kept.push(line);
  }
  const tidy = kept.filter(
    (line, i) => !(line === '#' && (kept[i - 1] === '#' || (kept[i + 1] ?? '') === '')),
  );
  return tidy.join('\n').replaceAll('uses: ./', 'uses: skillclimb/skillclimb@v1');
}

function yamlBlockAfter(page: string, text: string, heading: string): string {
  const at = text.indexOf(heading);
  expect(at, `${page} has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const open = text.indexOf('```yaml\n', at);
  expect(open, `${page} has no yaml block after "${heading}"`).toBeGreaterThanOrEqual(0);
  const start = open + '```yaml\n'.length;
  return text.slice(start, text.indexOf('```\n', start));
}

describe('README and docs/action.md workflows', () => {
  it.each([
    ['README.md', '## The nightly workflow', '.github/workflows/skill-iterate.yml'],
    ['docs/action.md', '## The nightly workflow', '.github/workflows/skill-iterate.yml'],
    ['docs/action.md', '## Many skills: the matrix', '.github/workflows/skill-iterate-matrix.yml'],
  ])('%s "%s" is %s as published', async (page, heading, file) => {
    const text = await readFile(page, 'utf8');
    const workflow = await readFile(file, 'utf8');
    expect(yamlBlockAfter(page, text, heading)).toBe(asPublished(workflow));
  });
});
