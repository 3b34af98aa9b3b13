/**
 * The dashboard at the end of a night (docs/how-it-works.md § The dashboard issue): the "re-run evals init" orders
 * carried out (one evals-init pull request), then the dashboard rewritten with tonight's results.
 */
import { messageOf } from '../core/errors.js';
import { inertInline } from '../core/text/untrusted-text.js';
import { ITERATE_DEFAULTS } from '../iterate/options.js';
import { skillsGlobsOf } from '../iterate/queue.js';
import { publishDashboard, runOrderNotes, type DashboardOrders } from './dashboard.js';
import type { Night } from './night-ports.js';
import type { RunFile } from './result-file.js';
import { evalsInitStep } from './steps/evals-init.js';

/**
 * The end of a night: the "re-run evals init" orders (one evals-init pull request), then the dashboard
 * rewritten with tonight's results, the one-off boxes cleared and the standing skips kept.
 */
export async function updateDashboard(night: Night, orders: DashboardOrders, file: RunFile): Promise<void> {
  const { inputs, ctx, io, options, client, repo, store } = night;
  const notes = [...orders.notes, ...runOrderNotes(orders.orders, file)];
  const evalsInit = orders.orders['evals-init'];
  if (evalsInit.length > 0) {
    const list = evalsInit.map((s) => `\`${s}\``).join(', ');
    try {
      const result = await evalsInitStep(inputs, ctx, io, { names: evalsInit, force: true });
      const url = result.outputs['pull-request'];
      notes.push(
        url
          ? `Re-ran evals init for ${list} as ordered: [pull request](${url}); the box is cleared.`
          : `Re-ran evals init for ${list} as ordered, but no pull request was opened` +
              `${result.failure ? ` (${inertInline(result.failure, 300)})` : ''}; the box is cleared.`,
      );
    } catch (error) {
      io.log.warn(`dashboard: evals init for ${evalsInit.join(', ')} failed: ${messageOf(error)}`);
      notes.push(
        `Evals init for ${list} failed (${inertInline(messageOf(error), 300)}); the box is cleared.`,
      );
    }
  }
  await publishDashboard({
    client,
    repo,
    file,
    recorded: store.snapshot.skills,
    ticked: { run: [], skip: orders.orders.skip, 'evals-init': [] },
    notes,
    freshnessWindowMs: inputs.freshnessWindowMs,
    minGain: options.minGain ?? ITERATE_DEFAULTS.minGain,
    now: io.now(),
    runUrl: ctx.runUrl,
    log: io.log,
    dryRun: false,
    writeSummary: (markdown) => io.writeSummary(markdown),
    skills: { project: options.project, globs: skillsGlobsOf(options) },
  });
}
