/** Types of app-runtime.mjs, for the test that runs the image's runtime folder (test/app/app-image.test.ts). */
export function copyAppRuntime(options: {
  root: string;
  outdir: string;
  buildDir?: string;
}): Promise<string[]>;
