/**
 * Which workflow events may run the Action. Under `pull_request_target` (or any pull-request event) the
 * checked-out SKILL.md, evals and config can come from a stranger's branch while the job holds the model
 * keys and a write token: the Action refuses such events unless a workflow names them in `allow-events`.
 */

/** The events the Action is made for: the nightly schedule and a manual run. */
export const DEFAULT_EVENTS = ['schedule', 'workflow_dispatch'] as const;

/**
 * Why the Action must not run under this event, or undefined when it may. An empty `GITHUB_EVENT_NAME` is a
 * local run (`npx @github/local-action`, a developer's shell); `GITHUB_HEAD_REF` is set only in a
 * pull-request context, which is refused whatever the event name unless that event is allowed explicitly.
 */
export function eventRefusal(env: NodeJS.ProcessEnv, allowEvents: readonly string[]): string | undefined {
  const event = env.GITHUB_EVENT_NAME?.trim() ?? '';
  const headRef = env.GITHUB_HEAD_REF?.trim() ?? '';
  const explicit = event !== '' && allowEvents.includes(event);
  const optIn = `add it to the allow-events input (allow-events: ${event || '<event>'}) only if the workflow never checks out untrusted code`;
  if (headRef && !explicit) {
    return (
      `refusing to run in a pull-request context (event ${event || '(none)'}, GITHUB_HEAD_REF ${headRef}): ` +
      `the checked-out skills and config may come from the pull request while secrets are present; ${optIn}`
    );
  }
  if (event === '' || explicit || (DEFAULT_EVENTS as readonly string[]).includes(event)) return undefined;
  return (
    `refusing to run on the ${event} event: skill-iterate runs on ${DEFAULT_EVENTS.join(' and ')} only, ` +
    `because other events can check out content someone else controls while secrets are present; ${optIn}`
  );
}

/**
 * `mode: score` runs on `pull_request` by design: GitHub gives a fork's pull request no secrets and a
 * read-only token, and the step reads the config and models from the base commit, so the pull request's
 * files are only scored, never obeyed. `pull_request_target` (secrets with a stranger's files) stays refused.
 */
export const SCORE_EVENTS = ['pull_request'] as const;

/** The events a mode may run on besides the defaults: the workflow's `allow-events`, plus score's own. */
export function allowedEvents(mode: string, allowEvents: readonly string[]): string[] {
  return mode === 'score' ? [...allowEvents, ...SCORE_EVENTS] : [...allowEvents];
}
