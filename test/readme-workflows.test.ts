import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/**
 * The README's copy-pasteable workflows are the example workflows of .github/workflows/, as a user would
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

function yamlBlockAfter(readme: string, heading: string): string {
  const at = readme.indexOf(heading);
  expect(at, `README has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const start = readme.indexOf('```yaml\n', at) + '```yaml\n'.length;
  return readme.slice(start, readme.indexOf('```\n', start));
}

describe('README workflows', () => {
  it.each([
    ['### Nightly workflow', '.github/workflows/skill-iterate.yml'],
    ['### Many skills: the matrix', '.github/workflows/skill-iterate-matrix.yml'],
  ])('%s is %s as published', async (heading, file) => {
    const readme = await readFile('README.md', 'utf8');
    const workflow = await readFile(file, 'utf8');
    expect(yamlBlockAfter(readme, heading)).toBe(asPublished(workflow));
  });
});
