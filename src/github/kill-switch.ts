/**
 * The Action's kill-switch, polled between skills: the `.skill-iterate-killswitch` file on the base branch
 * (read through the API, so one commit stops a running night) or the repository variable
 * `SKILL_ITERATE_KILLSWITCH`. An API error never stops the run: it is warned about once and read as "not set".
 */
import type { KillSwitch, Logger } from '../iterate/ports.js';
import type { GitHubClient, RepoRef } from './octokit.js';
import { describeApiError, httpStatusOf } from './octokit.js';

export const KILL_SWITCH_FILE = '.skill-iterate-killswitch';
export const KILL_SWITCH_VARIABLE = 'SKILL_ITERATE_KILLSWITCH';

export interface GitHubKillSwitchOptions {
  client: GitHubClient;
  repo: RepoRef;
  base: string;
  log: Logger;
  file?: string;
  variable?: string;
}

/** `1`, `true`, `yes`, `on` (any case) set the switch; anything else, including empty, does not. */
export function isKillSwitchValue(value: string | undefined): boolean {
  return /^(1|true|yes|on)$/i.test((value ?? '').trim());
}

export function createGitHubKillSwitch(options: GitHubKillSwitchOptions): KillSwitch {
  const file = options.file ?? KILL_SWITCH_FILE;
  const variable = options.variable ?? KILL_SWITCH_VARIABLE;
  const warned = new Set<string>();
  const warnOnce = (key: string, message: string) => {
    if (warned.has(key)) return;
    warned.add(key);
    options.log.warn(message);
  };

  async function fileReason(): Promise<string | null> {
    try {
      await options.client.rest.repos.getContent({ ...options.repo, path: file, ref: options.base });
      return `kill-switch file ${file} is present on ${options.base}`;
    } catch (error) {
      if (httpStatusOf(error) === 404) return null;
      warnOnce(
        'file',
        `kill-switch: could not read ${file} on ${options.base} (${describeApiError(error)}); treated as not set`,
      );
      return null;
    }
  }

  async function variableReason(): Promise<string | null> {
    try {
      const { data } = await options.client.rest.actions.getRepoVariable({ ...options.repo, name: variable });
      return isKillSwitchValue(data.value) ? `repository variable ${variable}=${data.value.trim()}` : null;
    } catch (error) {
      const status = httpStatusOf(error);
      if (status === 404) return null;
      const hint = status === 403 ? ' (the token needs the "Variables: read" permission)' : '';
      warnOnce(
        'variable',
        `kill-switch: could not read variable ${variable}${hint} (${describeApiError(error)}); treated as not set`,
      );
      return null;
    }
  }

  return {
    async check() {
      return (await fileReason()) ?? (await variableReason());
    },
  };
}
