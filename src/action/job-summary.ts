/** The job summary (pure): the morning summary plus PR and issue links, ship skips and score charts. */
import { renderMorningSummary } from '../core/iterate/summary.js';
import { inertInline } from '../core/text/untrusted-text.js';
import { renderScoreChart, SCORE_CHART_CAPTION } from '../github/action/score-chart.js';
import type { RunFile } from './result-file.js';

const score = (v: number) => v.toFixed(6);

export function renderJobSummary(file: RunFile, runUrl: string | undefined): string {
  const { run } = file;
  const parts: string[] = [renderMorningSummary(run).trimEnd(), ''];

  if (file.shipped.length > 0) {
    parts.push('## Pull requests', '');
    for (const s of file.shipped) {
      parts.push(
        `- \`${s.skill}\`: [#${s.pr}](${s.url}) ${s.status}, ${score(s.baseline)} → ${score(s.final)}`,
      );
    }
    parts.push('');
  }
  if (file.notShipped.length > 0) {
    parts.push('## Not shipped', '');
    // The reasons quote API and git errors: inert text, like every other untrusted string.
    for (const s of file.notShipped) {
      parts.push(`- \`${s.skill}\`: ${inertInline(s.reason, 1_000)}`);
    }
    parts.push('');
  }
  if (file.parked.length > 0) {
    parts.push('## Defect-park', '');
    for (const p of file.parked) {
      const where =
        p.via === 'issue' ? `[issue](${p.location})` : `local file \`${p.location}\` (the issues API failed)`;
      parts.push(`- \`${p.skill}\` (${p.kind}): ${where}`);
    }
    parts.push('');
  }

  const charts = run.results
    .map((r) => ({ skill: r.skill, chart: renderScoreChart(r.skill, r.rows) }))
    .filter((c): c is { skill: string; chart: string } => c.chart !== undefined);
  if (charts.length > 0) {
    parts.push('## Score per iteration', '', SCORE_CHART_CAPTION, '');
    for (const c of charts) parts.push(`### ${c.skill}`, '', c.chart, '');
  }
  if (runUrl) parts.push(`[Workflow run](${runUrl})`, '');
  return parts.join('\n');
}

export function renderPlanSummary(title: string, planText: string, queue: string[]): string {
  return [
    `## ${title}`,
    '',
    `${queue.length} skill${queue.length === 1 ? '' : 's'} queued. Nothing was changed on GitHub.`,
    '',
    '```text',
    planText.trimEnd(),
    '```',
    '',
  ].join('\n');
}
