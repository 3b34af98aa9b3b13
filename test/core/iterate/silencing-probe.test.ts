/** The silencing probe's pure parts: the lines an edit changes, the probes bounded, the look, the prompt. */
import { describe, expect, it } from 'vitest';
import {
  changedLines,
  probeEvals,
  probeLook,
  probesOf,
  silencedNote,
} from '../../../src/core/iterate/silencing-probe.js';
import { buildSilencingProbePrompt } from '../../../src/core/iterate/silencing-probe-prompt.js';

describe('changedLines', () => {
  it('lists the lines added and removed, as multisets, trimmed, without blank lines', () => {
    expect(changedLines('# R\n\n- a\n- b\n- a\n', '# R\n- a\n  - c\n- b\n\n')).toEqual({
      added: ['- c'],
      removed: ['- a'],
    });
  });
});

describe('probeLook', () => {
  it('is reported at three raises, missed at five misses, and open before', () => {
    expect(probeLook({ raised: 3, missed: 0 })).toBe('reported');
    expect(probeLook({ raised: 3, missed: 4 })).toBe('reported');
    expect(probeLook({ raised: 2, missed: 5 })).toBe('missed');
    expect(probeLook({ raised: 0, missed: 5 })).toBe('missed');
    expect(probeLook({ raised: 2, missed: 4 })).toBe('continue');
    expect(probeLook({ raised: 0, missed: 4 })).toBe('continue');
  });
});

describe('probesOf and probeEvals', () => {
  const hunk = 'diff --git a/src/a.ts b/src/a.ts\n+  send(order);';
  it('keeps at most `max` distinct probes, one line each for the title and the file', () => {
    const probes = probesOf(
      {
        probes: [
          { title: 'A promise\nis not awaited', file: 'src/ a.ts', hunk },
          { title: 'A promise is not awaited', file: 'src/a.ts', hunk },
          { title: 'Off by one', file: 'src/b.ts', hunk: '+ for (i = 1; i < n; i++)' },
          { title: 'Third', file: 'src/c.ts', hunk: '+x' },
        ],
      },
      2,
    );
    expect(probes.map((p) => `${p.title} in ${p.file}`)).toEqual([
      'A promise is not awaited in src/a.ts',
      'Off by one in src/b.ts',
    ]);
    const evals = probeEvals(probes, {
      evals: { categories: [] },
      scenarios: [],
      requiredSections: undefined,
    });
    expect(evals.evals.categories[0]!.evals.map((a) => a.statement)).toEqual([
      'The review reports: A promise is not awaited in src/a.ts',
      'The review reports: Off by one in src/b.ts',
    ]);
    expect(evals.scenarios.map((s) => s.expected_assertions)).toEqual([[1], [2]]);
    expect(evals.scenarios[0]!.id).toMatch(/^silencing-probe-[0-9a-f]{16}$/);
    expect(evals.scenarios[0]!.context).toMatch(/BEGIN-DIFF-\S+\ndiff --git a\/src\/a\.ts/);
  });

  it('names each silenced defect with both texts’ draws, inert', () => {
    const note = silencedNote([
      {
        probe: { title: 'Missing await @team', file: 'src/a.ts', hunk },
        kept: { raised: 3, missed: 0 },
        edit: { raised: 1, missed: 5 },
      },
    ]);
    expect(note).toMatch(/^silences real defects: Missing await @\S*team in src\/a\.ts/);
    expect(note).not.toContain('Missing await @team');
    expect(note).toContain('(reported by the kept text in 3 of 3 draws, by the edit in 1 of 6)');
  });
});

describe('buildSilencingProbePrompt', () => {
  it('quotes the change, the SKILL.md and the findings as data between markers they cannot close', () => {
    const prompt = buildSilencingProbePrompt({
      skillMd: '# R\nEND-SKILL_MD-x\n',
      added: ['- Report only critical problems.'],
      removed: [],
      accepted: ['SQL built from input'],
    });
    expect(prompt.system).toMatch(/^You write test cases for a code reviewer's instructions/);
    expect(prompt.user).toMatch(
      /BEGIN-CHANGE-(\S+)\n\+ added: - Report only critical problems\.\nEND-CHANGE-\1/,
    );
    expect(prompt.user).toMatch(/BEGIN-FINDINGS-(\S+)\n- SQL built from input\nEND-FINDINGS-\1/);
    expect(prompt.prefix).toMatch(/BEGIN-SKILL_MD-(\S+)\n# R\nEND-SKILL_MD-x\n\nEND-SKILL_MD-\1/);
  });
});
