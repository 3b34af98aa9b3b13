/**
 * The permission gate (docs/how-it-works.md § The App): only commenters whose repository role is in the
 * configured set run a loop. `getCollaboratorPermissionLevel` answers `role_name` (admin, maintain, write,
 * triage, read, or a custom role) where GitHub has it, and the coarser `permission` (admin, write, read,
 * none) otherwise; the finer one wins.
 */
import type { AppOctokit } from '../../github/app-octokit.js';
import { repoOf } from '../../github/app-octokit.js';
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

export function isRoleAllowed(role: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => entry.toLowerCase() === role.toLowerCase());
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
    role = roleOf(data as PermissionAnswer);
  } catch (error) {
    if (httpStatusOf(error) !== 404) throw error;
    role = 'none';
  }
  return { allowed: isRoleAllowed(role, allowed), role };
}
