/** docs/models.md lists every provider of src/core/providers.ts: its model id, what it needs, its variables. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MODEL_PROVIDERS, PROVIDERS } from '../../src/core/providers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The rows of the first table under `## <heading>`, split into trimmed cells. */
async function tableRows(heading: string): Promise<string[][]> {
  const page = await readFile(path.join(ROOT, 'docs', 'models.md'), 'utf8');
  const section = page.split(`\n## ${heading}\n`)[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('docs/models.md', () => {
  it('has a row per provider under "Model ids", naming the variable it cannot do without', async () => {
    const rows = await tableRows('Model ids');
    const rowOf = (example: string) => rows.find(([id]) => id === `\`${example}\``);
    for (const provider of PROVIDERS) expect(rowOf(provider.example), provider.id).toBeDefined();
    expect(rows).toHaveLength(PROVIDERS.length);
    for (const provider of MODEL_PROVIDERS) {
      const needed = provider.key.required ? provider.key.variable : provider.baseUrl.variable;
      expect(rowOf(provider.example)?.[2], provider.id).toContain(`\`${needed}\``);
    }
  });

  it('describes every key and base-URL variable under "Environment variables"', async () => {
    const documented = (await tableRows('Environment variables')).map(([variable, usedBy]) => ({
      variable,
      usedBy,
    }));
    for (const provider of MODEL_PROVIDERS) {
      for (const variable of [provider.key.variable, provider.baseUrl.variable]) {
        const row = documented.find((r) => r.variable === `\`${variable}\``);
        expect(row, variable).toBeDefined();
        expect(row?.usedBy, variable).toContain(`\`${provider.id}:\``);
      }
    }
  });

  it("names every provider's config field in the config file's endpoints row", async () => {
    const rows = await tableRows('Config file');
    const endpoints = rows.find(([field]) => field?.startsWith('`endpoints.'));
    for (const provider of MODEL_PROVIDERS) {
      expect(endpoints?.[0], provider.id).toMatch(new RegExp(`\\.${provider.baseUrl.configKey}\\b`));
    }
  });
});
