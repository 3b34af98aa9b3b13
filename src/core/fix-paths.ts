/**
 * Which paths an automatic fix may write (docs/how-it-works.md § Review fixes): the files the pull request
 * already touches plus the configured globs, never under `.github/workflows/` (a workflow change runs
 * with the repository's secrets), never outside the repository.
 */

/** `**` any run of characters including `/`, `*` any run without `/`, `?` one character without `/`. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] ?? '';
    if (char === '*' && glob[i + 1] === '*') {
      // `**/` also matches nothing, so `**/x` matches `x` at the top.
      if (glob[i + 2] === '/') {
        source += '(?:.*/)?';
        i += 2;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Why `path` may not be written by a fix, or undefined when it may. */
export function fixPathProblem(
  path: string,
  allow: { touched: ReadonlySet<string>; globs: readonly string[] },
): string | undefined {
  if (path === '' || path.startsWith('/') || path.includes('\\'))
    return `\`${path}\` is not a repository path`;
  const parts = path.split('/');
  if (parts.some((part) => part === '..' || part === '.' || part === '')) {
    return `\`${path}\` is not a plain repository path`;
  }
  if (parts[0] === '.git') return `\`${path}\` is inside .git`;
  if (/^\.github\/workflows\//i.test(path))
    return `\`${path}\` is a workflow file; fixes never touch .github/workflows/`;
  if (allow.touched.has(path) || allow.globs.some((glob) => globToRegExp(glob).test(path))) return undefined;
  return `\`${path}\` is neither changed by the pull request nor in the configured fix paths`;
}

/** Workflow files are refused by every writer, whatever the policy it was handed says. */
export function isWorkflowPath(path: string): boolean {
  return /^\.github\/workflows\//i.test(path.replace(/^\.\//, ''));
}
