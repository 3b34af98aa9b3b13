/**
 * Who may never start anything, decided from the payload alone (before the webhook is answered):
 * bots — including the App itself — never run a loop, whatever their comment says (docs/how-it-works.md
 * § The App).
 */
import type { AppIdentity } from '../../github/review/app-octokit.js';
import { isByApp } from '../../github/review/app-octokit.js';

export interface Sender {
  login: string;
  type?: string | undefined;
}

/** GitHub marks Apps and machine users `type: "Bot"`; their logins end in `[bot]`. */
export function isBotSender(sender: Sender | null | undefined): boolean {
  if (!sender) return true;
  return sender.type === 'Bot' || sender.login.toLowerCase().endsWith('[bot]');
}

export interface CommentAuthorship {
  user?: { login?: string; type?: string } | null;
  performed_via_github_app?: { id?: number } | null;
}

/** A comment the App wrote itself (its sticky comment, its replies): never a command. */
export function isOwnComment(comment: CommentAuthorship, app: AppIdentity): boolean {
  return isByApp(comment, app);
}
