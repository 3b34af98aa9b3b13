/** A Mermaid `xychart-beta` of one skill's score per iteration (PR bodies and the job summary). Pure. */
import type { ResultsRow } from '../../core/iterate/run-result.js';

/** The rows of the latest run: `results.tsv` keeps every night, and a run starts with its baseline row. */
export function latestRunRows(rows: readonly ResultsRow[]): ResultsRow[] {
  let start = 0;
  rows.forEach((row, index) => {
    if (row.status === 'baseline') start = index;
  });
  return rows.slice(start);
}

export interface ScorePoint {
  /** 0 for the baseline. */
  iteration: number;
  score: number;
  /** The high-water mark after this iteration (what the branch holds). */
  kept: number;
}

/** Scored iterations of the latest run; crashes (score NULL) have no point. */
export function scorePoints(rows: readonly ResultsRow[]): ScorePoint[] {
  const points: ScorePoint[] = [];
  let kept: number | null = null;
  latestRunRows(rows).forEach((row, iteration) => {
    if (row.score === null) return;
    if (kept === null || row.status === 'baseline' || row.status === 'keep') kept = row.score;
    points.push({ iteration, score: row.score, kept });
  });
  return points;
}

function axisBounds(values: number[]): [number, number] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  let low = Math.max(0, Math.floor((min - 0.02) * 20) / 20);
  let high = Math.min(1, Math.ceil((max + 0.02) * 20) / 20);
  if (high - low < 0.05) {
    low = Math.max(0, low - 0.05);
    high = Math.min(1, high + 0.05);
  }
  return [low, high];
}

const fixed = (value: number, digits: number): string => String(Number(value.toFixed(digits)));

/** The chart as a fenced Mermaid block, or undefined when fewer than two iterations were scored. */
export function renderScoreChart(skill: string, rows: readonly ResultsRow[]): string | undefined {
  const points = scorePoints(rows);
  if (points.length < 2) return undefined;
  const [low, high] = axisBounds(points.flatMap((p) => [p.score, p.kept]));
  const title = `${skill}: score per iteration`.replace(/"/g, "'");
  return [
    '```mermaid',
    'xychart-beta',
    `  title "${title}"`,
    `  x-axis "iteration" [${points.map((p) => `"${p.iteration}"`).join(', ')}]`,
    `  y-axis "score" ${fixed(low, 2)} --> ${fixed(high, 2)}`,
    `  line [${points.map((p) => fixed(p.score, 4)).join(', ')}]`,
    `  line [${points.map((p) => fixed(p.kept, 4)).join(', ')}]`,
    '```',
  ].join('\n');
}

export const SCORE_CHART_CAPTION =
  "Lines: each iteration's score, and the kept score (the high-water mark the branch holds). " +
  'Iteration 0 is the baseline; crashed iterations have no score and no point.';

const SPARK = '▁▂▃▄▅▆▇█';

/**
 * A one-line trend of scores (the dashboard's table cells, where a chart cannot go): one block character
 * per value, scaled between the lowest and the highest; a flat series is a flat middle line.
 */
export function renderSparkline(values: readonly number[]): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return values
    .map((v) => SPARK[high - low < 1e-9 ? 3 : Math.round(((v - low) / (high - low)) * (SPARK.length - 1))])
    .join('');
}
