/**
 * Reading `.github/review-loop.yml` with Probot's config plugin (docs/app.md § Configuration): the
 * repository's file, the organisation's `.github` file when the repository has none, and the file an
 * `_extends:` names, merged as Probot's `context.config` merges them (objects deeply, lists joined). Unlike
 * `context.config`, the files read are kept, so an `_extends:` naming a repository or file that cannot be
 * read is said, not silently ignored.
 */

export interface ConfigFile {
  owner: string;
  repo: string;
  path: string;
  config: Record<string, unknown> | null;
}

export interface ConfigRead {
  /** The merged configuration, or null when no file was found. */
  config: unknown;
  /** `owner/repo` of an `_extends:` target that could not be read (missing, private to the App, no file). */
  missingExtends: string | undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** deepmerge's defaults, which Probot's `context.config` uses: later wins, objects merge, arrays join. */
function merge(target: unknown, source: unknown): unknown {
  if (Array.isArray(target) && Array.isArray(source))
    return [...(target as unknown[]), ...(source as unknown[])];
  if (isPlainObject(target) && isPlainObject(source)) {
    const out: Record<string, unknown> = { ...target };
    for (const [key, value] of Object.entries(source)) {
      out[key] = key in target ? merge(target[key], value) : value;
    }
    return out;
  }
  return source;
}

export function mergeConfigs(configs: readonly Record<string, unknown>[]): Record<string, unknown> {
  return configs.reduce<Record<string, unknown>>(
    (merged, config) => merge(merged, config) as Record<string, unknown>,
    {},
  );
}

/**
 * The `_extends:` target that was not found. The plugin reads the repository's file, then (when it has none)
 * the organisation's `.github` file, then each `_extends:` target in turn, stopping at one without content
 * (a missing file, or a repository the App cannot see, reads as "no configuration").
 */
export function missingExtendsOf(files: readonly ConfigFile[]): string | undefined {
  const firstExtended = files[0]?.config ? 1 : 2;
  const missing = files.slice(firstExtended).find((file) => file.config === null);
  return missing && `${missing.owner}/${missing.repo}`;
}

/** What `context.config` would return, and the `_extends:` target it could not read. */
export function readConfigFiles(result: { config: unknown; files: readonly ConfigFile[] }): ConfigRead {
  const found = result.files.some((file) => file.config !== null);
  return { config: found ? result.config : null, missingExtends: missingExtendsOf(result.files) };
}
