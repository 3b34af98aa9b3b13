/**
 * Models that answer a night from a table of draws (the noise-aware and reuse tests): each render answers
 * `<text>|<scenario>|draw k` (k counts the renders of that text and scenario so far), and the grader's
 * verdicts are the table's row for (text, scenario, k), so the night's draws are fixed whatever order the
 * calls go out in. The texts are the demo skill's as the two edits below leave it.
 */
import type { SkillScript } from './nock-skill-models.js';

export type Variant = 'base' | 'reworded' | 'improved' | 'none';
/** Per text and scenario, the passing assertion ids of draw k (the last entry repeats). */
export type Table = Partial<Record<Variant, Record<string, number[][]>>>;

/** Which text a render's system prompt carries (`none`: the uplift's placeholder). */
export function variantOf(system: string): Variant {
  if (!system.includes('# Demo')) return 'none';
  if (system.includes('SUMMARY')) return 'improved';
  if (system.includes('carefully')) return 'reworded';
  return 'base';
}

/** The scenario a render or grade request is about (`h`: the holdout). */
export const scenarioOf = (user: string) =>
  user.includes('HOLDOUT-CONTEXT') ? 'h' : (/CTX-(s\d)/.exec(user)?.[1] ?? 's1');

export function drawTableScript(table: Table, propose: SkillScript['propose']): SkillScript {
  const counts = new Map<string, number>();
  return {
    render: ({ system, user }) => {
      const key = `${variantOf(system)}|${scenarioOf(user)}`;
      const k = counts.get(key) ?? 0;
      counts.set(key, k + 1);
      return `${key}|draw ${k}`;
    },
    grade: ({ text, ids }) => {
      const m = /(base|reworded|improved|none)\|(s\d|h)\|draw (\d+)/.exec(text);
      if (!m) throw new Error('grader call without a scripted render');
      const rows = table[m[1] as Variant]?.[m[2]!] ?? [[]];
      const pass = rows[Math.min(Number(m[3]), rows.length - 1)] ?? [];
      return ids.filter((id) => pass.includes(id));
    },
    propose,
  };
}

/** The `reworded` text: a neutral edit. */
export const reword: SkillScript['propose'] = () => ({
  description: 'reword a step',
  old_string: '1. Read the notes.',
  new_string: '1. Read the notes carefully.',
});

/** The `improved` text. */
export const addSummary: SkillScript['propose'] = () => ({
  description: 'add SUMMARY',
  old_string: '## Constraints\n',
  new_string: '## Constraints\n\n- SUMMARY\n',
});
