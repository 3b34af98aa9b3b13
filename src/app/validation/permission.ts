/**
 * The permission gate (docs/how-it-works.md § The App): only commenters whose repository role
 * `allowed_roles` admits (a minimum built-in role, or a custom role by name; admins always) run a loop. `getCollaboratorPermissionLevel` answers `role_name` (admin, maintain, write,
 * triage, read, or a custom role) where GitHub has it, and the coarser `permission` (admin, write, read,
 * none) otherwise; the finer one wins.
 */
import type { AppOctokit } from '../../github/review/app-octokit.js';
import { repoOf } from '../../github/review/app-octokit.js';
import { httpStatusOf } from '../../github/octokit.js';

export const DEFAULT_ALLOWED_ROLES = ['admin', 'maintain', 'write'] as const;

export interface PermissionAnswer {
  role_name?: string | null;
  permission?: string | null;
}

/** The role a permission answer grants, lower-cased; `none` when GitHub named nothing. */
export function roleOf(answer: PermissionAnswer): string {
  const role = answer.role_name?.trim() || answer.permission?.trim() || 'none';
  return role.toLowerCase();
}

/** GitHub's built-in repository roles, lowest first: each includes what the ones below it may do. */
const ROLE_LADDER = ['read', 'triage', 'write', 'maintain', 'admin'] as const;

function rank(role: string): number {
  return (ROLE_LADDER as readonly string[]).indexOf(role.toLowerCase());
}

/**
 * The roles `allowed_roles` admits (docs/app.md § Configuration): a built-in role means that role AND
 * every role above it (`[read]` is read and above, `[write]` is write, maintain and admin); a custom role
 * means exactly that role; admin is always admitted, so no list locks the repository's admins out.
 * Highest first, as the refusal names them.
 */
export function admittedRoles(allowed: readonly string[]): string[] {
  const lowest = Math.min(...allowed.map(rank).filter((index) => index >= 0), ROLE_LADDER.length - 1);
  const builtIn = ROLE_LADDER.slice(lowest).reverse();
  const custom = allowed.map((entry) => entry.toLowerCase()).filter((entry) => rank(entry) < 0);
  return [...new Set([...builtIn, ...custom])];
}

export function isRoleAllowed(role: string, allowed: readonly string[]): boolean {
  return admittedRoles(allowed).includes(role.toLowerCase());
}

export type PermissionVerdict = { allowed: true; role: string } | { allowed: false; role: string };

/** Asks GitHub; a user who is not a collaborator at all (404) has role `none`. */
export async function checkPermission(
  octokit: AppOctokit,
  repo: { owner: string; repo: string },
  username: string,
  allowed: readonly string[],
): Promise<PermissionVerdict> {
  let role: string;
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repoOf(repo), username });
    role = roleOf(data);
  } catch (error) {
    if (httpStatusOf(error) !== 404) throw error;
    role = 'none';
  }
  return { allowed: isRoleAllowed(role, allowed), role };
}
