/**
 * The layer rules of docs/how-it-works.md § Layers and ports, checked by `npm run lint`.
 * Folders under src/: core (pure logic) ← ports (interfaces) ← engines (iterate, review) ← adapters
 * (llm, git, github, adapters/local, config) ← front-ends (action, app, cli).
 */
/** Packages that talk to git, GitHub or a model (their resolved paths). */
const SDKS = 'node_modules/(simple-git|@octokit/[^/]+|@actions/[^/]+|ai|@ai-sdk/[^/]+|probot)/';
const PROCESSES = '^(node:)?child_process$';
const FILE_SYSTEM = '^(node:)?fs(/promises)?$';
const IO_MODULES = [FILE_SYSTEM, PROCESSES, SDKS];

/**
 * The skill-iterate files that use node:fs themselves (docs/how-it-works.md § Layers and ports): the engine
 * runs on a checkout on local disk under every front-end, so reading a skill's files and writing results.tsv,
 * the morning summary and new eval files is the engine's own work, not a port's. Each entry says what for.
 */
const ITERATE_FILE_ACCESS = [
  'evals-init', // writes the new eval files (temporary file, then rename)
  'loop/skill-file', // SKILL.md in the worktree: read once, each applied edit written back, never through a link
  'park-skill', // reads results.tsv for the park report
  'preflight', // the project folder and a skill's folder exist
  'queue', // which eval files a found skill has
  'regular-file', // the one check that a file is a regular file of bounded size, before it is read
  'results-file', // appends to results.tsv, never through a link
  'score', // the structural metrics' link and memory-file checks when no committed-file view is given
  'skill-finder', // walks the skills setting's folders
  'summary-file', // writes the morning summary
  'symlinks', // the one link rule: lstat and realpath of a skill's files
].map((name) => `^src/iterate/${name}\\.ts$`);

/**
 * The src/github files that run git themselves through simple-git: the Action's pushes, fetches and
 * throwaway indexes on its checkout (the shipper's branch, the state branch, the evals PR). The engines' own
 * git work (worktrees, commits, resets) goes through src/git.
 */
const GITHUB_GIT = [
  'branch-owner', // who made the tip of skill-iterate/<skill>
  'evals-pull-request', // the evals-init commit on a fresh base
  'git', // the helpers the others share
  'shipper', // pushes the squashed commit with a lease
  'squash', // the squash rebuilt on the fetched base in a throwaway index
  'state-branch-guard', // the state branch is an orphan history the Action owns
  'state-store', // the state branch: fetch, commit, push
].map((name) => `^src/github/action/${name}\\.ts$`);

/** Path patterns of the project's folders. */
const src = (folder) => `^src/${folder}/`;
const anyOf = (...folders) => `^src/(${folders.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No cycles anywhere: a cycle makes two modules one, and hides which layer owns what.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-pure-project',
      severity: 'error',
      comment: 'core imports only core.',
      from: { path: src('core') },
      to: { path: '^src/', pathNot: src('core') },
    },
    {
      name: 'core-does-no-io',
      severity: 'error',
      comment: 'core does no I/O: no file system, processes, git, GitHub or model SDKs.',
      from: { path: src('core') },
      to: { path: IO_MODULES },
    },
    {
      name: 'core-review-not-core-iterate',
      severity: 'error',
      comment: "Each engine's pure logic stands alone: core/review never imports core/iterate.",
      from: { path: src('core/review') },
      to: { path: src('core/iterate') },
    },
    {
      name: 'core-iterate-not-core-review',
      severity: 'error',
      comment: "Each engine's pure logic stands alone: core/iterate never imports core/review.",
      from: { path: src('core/iterate') },
      to: { path: src('core/review') },
    },
    {
      name: 'core-shared-not-engine-core',
      severity: 'error',
      comment:
        'core/text and the core/ root are shared by both engines, so they import neither engine folder.',
      from: { path: ['^src/core/[^/]+$', src('core/text')] },
      to: { path: anyOf('core/iterate', 'core/review') },
    },
    {
      name: 'ports-import-only-core',
      severity: 'error',
      comment: 'ports are interfaces over core types.',
      from: { path: src('ports') },
      to: { path: '^src/', pathNot: anyOf('core', 'ports') },
    },
    {
      name: 'ports-do-no-io',
      severity: 'error',
      from: { path: src('ports') },
      to: { path: IO_MODULES },
    },
    {
      name: 'engines-import-core-and-ports',
      severity: 'error',
      comment: 'The engines (iterate, review) reach the outside only through the ports.',
      from: { path: anyOf('iterate', 'review') },
      to: {
        path: '^src/',
        pathNot: [anyOf('core', 'ports'), '^src/$1/'],
      },
    },
    {
      name: 'engines-touch-files-only-where-listed',
      severity: 'error',
      comment:
        'The review engine reads and writes only through its store and target ports (the App has no checkout); ' +
        'in skill-iterate only the files of ITERATE_FILE_ACCESS use node:fs, each for the reason it gives.',
      from: { path: anyOf('iterate', 'review'), pathNot: ITERATE_FILE_ACCESS },
      to: { path: FILE_SYSTEM },
    },
    {
      name: 'engines-use-no-adapter-sdk',
      severity: 'error',
      comment: 'git, GitHub and model SDKs belong to their adapters.',
      from: { path: anyOf('iterate', 'review') },
      to: { path: [PROCESSES, SDKS] },
    },
    {
      name: 'llm-is-a-model-adapter',
      severity: 'error',
      comment: 'llm never imports github, git, the local adapters or an engine.',
      from: { path: src('llm') },
      to: { path: anyOf('github', 'git', 'adapters', 'iterate', 'review', 'config', 'action', 'app', 'cli') },
    },
    {
      name: 'provider-sdks-only-in-llm-providers',
      severity: 'error',
      comment:
        "A provider's SDK package is imported by its own file in src/llm/providers/ (listed in registry.ts), " +
        'so adding a provider is one file there plus its row in src/core/providers.ts.',
      from: { path: '^src/', pathNot: src('llm/providers') },
      to: { path: 'node_modules/@ai-sdk/' },
    },
    {
      name: 'git-and-github-are-adapters',
      severity: 'error',
      comment: 'git and github never import an engine, the local adapters or a front-end.',
      from: { path: anyOf('git', 'github') },
      to: { path: anyOf('iterate', 'review', 'adapters', 'config', 'llm', 'action', 'app', 'cli') },
    },
    {
      name: 'github-shared-adapters-stand-alone',
      severity: 'error',
      comment:
        "src/github's root holds what both front-ends use (the Octokit setup, markers, the forge); it never " +
        "imports the App's adapters (github/review) or the Action's (github/action).",
      from: { path: '^src/github/[^/]+$' },
      to: { path: anyOf('github/review', 'github/action') },
    },
    {
      name: 'github-review-is-the-apps',
      severity: 'error',
      comment:
        "The App's GitHub adapters (github/review) never import the Action's, and only the App uses them.",
      from: { path: src('github/review') },
      to: { path: src('github/action') },
    },
    {
      name: 'github-action-is-the-actions',
      severity: 'error',
      comment: "The Action's GitHub adapters (github/action) never import the App's.",
      from: { path: src('github/action') },
      to: { path: src('github/review') },
    },
    {
      name: 'only-the-app-uses-github-review',
      severity: 'error',
      from: { path: '^src/', pathNot: anyOf('app', 'github/review') },
      to: { path: src('github/review') },
    },
    {
      name: 'the-app-does-not-use-github-action',
      severity: 'error',
      from: { path: src('app') },
      to: { path: src('github/action') },
    },
    {
      name: 'git-does-not-import-github',
      severity: 'error',
      from: { path: src('git') },
      to: { path: src('github') },
    },
    {
      name: 'local-adapters',
      severity: 'error',
      comment: 'The local adapters use core, the ports and git only.',
      from: { path: src('adapters/local') },
      to: { path: '^src/', pathNot: anyOf('core', 'ports', 'git', 'adapters/local') },
    },
    {
      name: 'config-is-below-front-ends',
      severity: 'error',
      from: { path: src('config') },
      to: { path: '^src/', pathNot: anyOf('core', 'ports', 'llm', 'config') },
    },
    {
      name: 'action-not-app-or-cli',
      severity: 'error',
      from: { path: src('action') },
      to: { path: anyOf('app', 'cli') },
    },
    {
      name: 'app-not-action-or-cli',
      severity: 'error',
      from: { path: src('app') },
      to: { path: anyOf('action', 'cli') },
    },
    {
      name: 'cli-not-action-or-app',
      severity: 'error',
      from: { path: src('cli') },
      to: { path: anyOf('action', 'app') },
    },
    {
      name: 'simple-git-only-in-git-adapters',
      severity: 'error',
      comment:
        'git runs in src/git, and in src/github only in the files of GITHUB_GIT (the Action pushing and ' +
        'fetching its branches); no other file imports simple-git or starts a process.',
      from: { path: '^src/', pathNot: [src('git'), ...GITHUB_GIT] },
      to: { path: ['node_modules/simple-git/', PROCESSES] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too: a port typed on an adapter's type is still coupled to it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
