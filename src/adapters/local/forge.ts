/**
 * The CLI's forge: defect-park reports become markdown files beside the morning summaries (the original
 * skill's local fallback for a failed `gh issue create`, used here as the primary path; the Action's forge
 * falls back to it). docs/how-it-works.md § Defect park.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ParkReport } from '../../core/iterate/park.js';
import { redactSecrets } from '../../core/text/redact.js';
import { runsDirOf } from '../../core/iterate/skill-layout.js';
import type { Forge } from '../../ports/forge.js';

/** Skill names are folder names; anything that could leave the runs folder is flattened anyway. */
function safeName(skill: string): string {
  return skill.replace(/[^A-Za-z0-9._-]/g, '-');
}

export function parkFileName(report: Pick<ParkReport, 'kind' | 'skill' | 'epoch'>, attempt = 0): string {
  const prefix = report.kind === 'calibration' ? 'calibration-broken' : 'parked';
  const suffix = attempt === 0 ? '' : `-${attempt + 1}`;
  return `${prefix}-${safeName(report.skill)}-${report.epoch}${suffix}.md`;
}

async function writeExclusive(dir: string, report: ParkReport, content: string): Promise<string> {
  // Exclusive create: a second park of the same skill in the same second gets `-2`, never overwrites.
  for (let attempt = 0; ; attempt++) {
    const file = path.join(dir, parkFileName(report, attempt));
    try {
      await writeFile(file, content, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 99) throw error;
    }
  }
}

/**
 * Writes docs/skill-iterate-runs/parked-<skill>-<epoch>.md (calibration-broken-<skill>-<epoch>.md),
 * redacted with the exact `secrets` in use: the report quotes results.tsv and provider errors
 * (docs/how-it-works.md § Untrusted text and secrets).
 */
export function createLocalForge(project: string, secrets: readonly string[] = []): Forge {
  const dir = runsDirOf(project);
  return {
    async park(report) {
      await mkdir(dir, { recursive: true });
      const body = report.body.endsWith('\n') ? report.body : `${report.body}\n`;
      const content = redactSecrets(`# ${report.title}\n\n${body}`, secrets);
      const location = await writeExclusive(dir, report, content);
      return { location, via: 'file' };
    },
  };
}
