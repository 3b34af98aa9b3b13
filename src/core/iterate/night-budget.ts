/**
 * The night budget's words (docs/how-it-works.md § Caps and budgets): once a night's estimated spend reaches
 * it no new skill starts, and the skills not started run first next night. The log, the morning summary, the
 * Action's job summary and the dashboard say it in the same line. Pure.
 */
import type { NightBudgetStop } from './run-result.js';

function usd(value: number): string {
  return value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`;
}

/** The budget as given: `$5`, `$2.50`, `$0.0001`. */
function budgetText(value: number): string {
  return Number.isInteger(value) ? `$${value}` : usd(value);
}

/** "Night budget of $5 reached after $5.1234: 2 skills not started: b, c — they run first next night." */
export function nightBudgetLine(stop: NightBudgetStop): string {
  const n = stop.notStarted.length;
  return (
    `Night budget of ${budgetText(stop.budgetUsd)} reached after ${usd(stop.spentUsd)}: ` +
    `${n} ${n === 1 ? 'skill' : 'skills'} not started: ${stop.notStarted.join(', ')} — ` +
    `${n === 1 ? 'it runs' : 'they run'} first next night.`
  );
}

/** "Run first: a, b (last night's budget kept them from starting)." */
export function runFirstLine(skills: readonly string[]): string {
  return `Run first: ${skills.join(', ')} (the night budget kept ${skills.length === 1 ? 'it' : 'them'} from starting last night).`;
}
