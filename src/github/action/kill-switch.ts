/**
 * The Action's kill-switch, polled at launch and between skills. Three routes, first set wins:
 * - the `kill-switch` input (`${{ vars.SKILL_ITERATE_KILLSWITCH }}` in the workflow): works with any token,
 *   but its value is fixed when the job starts;
 * - the `.skill-iterate-killswitch` file on the base branch, read through the API: the mid-run route, one
 *   commit stops a running night;
 * - the repository variable read through the API, mid-run too, but only when the token may read variables
 *   (`GITHUB_TOKEN` cannot): a 403 says so once and the variable is not asked for again.
 * A read that fails (an answer other than "not found", or none) throws KillSwitchReadError: the engine
 * stops unless told to continue (docs/how-it-works.md § Pre-flight). A 403 on the variable is not a failed
 * read but a permission the token lacks, said once; the file route still works.
 */
import { KILL_SWITCH_FILE } from '../../core/iterate/skill-layout.js';
import type { KillSwitch } from '../../ports/kill-switch.js';
import type { Logger } from '../../ports/logger.js';
import type { GitHubClient, GitHubRetryPolicy, RepoRef } from '../octokit.js';
import { describeApiError, httpStatusOf } from '../octokit.js';
import { SkillclimbError } from '../../core/errors.js';

export const KILL_SWITCH_VARIABLE = 'SKILL_ITERATE_KILLSWITCH';
export const KILL_SWITCH_INPUT = 'kill-switch';

/** The switch could not be read: it may be set. */
export class KillSwitchReadError extends SkillclimbError {
  readonly kind = 'github';
  constructor(message: string) {
    super(message);
    this.name = 'KillSwitchReadError';
  }
}

export interface GitHubKillSwitchOptions {
  client: GitHubClient;
  repo: RepoRef;
  base: string;
  log: Logger;
  /** The `kill-switch` input as given (already validated); undefined or a false value: not set. */
  input?: string | undefined;
  file?: string;
  variable?: string;
}

/** `1`, `true`, `yes`, `on` (any case) set the switch; anything else, including empty, does not. */
export function isKillSwitchValue(value: string | undefined): boolean {
  return /^(1|true|yes|on)$/i.test((value ?? '').trim());
}

/** Retries of a kill-switch read that failed with a 5xx or on the network: one, not the client's three. */
export const KILL_SWITCH_RETRIES = 1;

/**
 * The retry policy of the kill-switch's own client: the switch is read at launch and between skills, and
 * with `kill-switch-read-error: continue` an API that keeps failing must not add the night's full backoff
 * to every check (docs/how-it-works.md § Pre-flight).
 */
export function killSwitchRetryPolicy(policy: GitHubRetryPolicy): GitHubRetryPolicy {
  return { ...policy, retries: Math.min(policy.retries, KILL_SWITCH_RETRIES) };
}

/** The reason the `kill-switch` input stops the run, or null. */
export function killSwitchInputReason(value: string | undefined): string | null {
  return isKillSwitchValue(value) ? `input ${KILL_SWITCH_INPUT}=${(value ?? '').trim()}` : null;
}

export function createGitHubKillSwitch(options: GitHubKillSwitchOptions): KillSwitch {
  const file = options.file ?? KILL_SWITCH_FILE;
  const variable = options.variable ?? KILL_SWITCH_VARIABLE;
  const inputReason = killSwitchInputReason(options.input);
  const reported = new Set<string>();
  const once = (key: string, level: 'info' | 'warn', message: string) => {
    if (reported.has(key)) return;
    reported.add(key);
    options.log[level](message);
  };
  /** Cleared by a 403: the token cannot read variables, and that does not change during the job. */
  let variableReadable = true;

  async function fileReason(): Promise<string | null> {
    try {
      await options.client.rest.repos.getContent({ ...options.repo, path: file, ref: options.base });
      return `kill-switch file ${file} is present on ${options.base}`;
    } catch (error) {
      if (httpStatusOf(error) === 404) return null;
      throw new KillSwitchReadError(`could not read ${file} on ${options.base} (${describeApiError(error)})`);
    }
  }

  async function variableReason(): Promise<string | null> {
    if (!variableReadable) return null;
    try {
      const { data } = await options.client.rest.actions.getRepoVariable({ ...options.repo, name: variable });
      return isKillSwitchValue(data.value) ? `repository variable ${variable}=${data.value.trim()}` : null;
    } catch (error) {
      const status = httpStatusOf(error);
      // The usual answers (GITHUB_TOKEN has no variables permission; the variable does not exist) are not
      // worth a warning on every night: the input and the file route cover them.
      if (status === 403 || status === 404) {
        if (status === 403) variableReadable = false;
        once(
          'variable-info',
          'info',
          status === 403
            ? `kill-switch: this token cannot read repository variables (HTTP 403), so ${variable} is not ` +
                `polled during the run; pass it as the ${KILL_SWITCH_INPUT} input, or commit ${file} to ${options.base} to stop a running night`
            : `kill-switch: repository variable ${variable} is not set (or not visible to this token)`,
        );
        return null;
      }
      throw new KillSwitchReadError(`could not read variable ${variable} (${describeApiError(error)})`);
    }
  }

  return {
    async check() {
      return inputReason ?? (await fileReason()) ?? (await variableReason());
    },
  };
}
