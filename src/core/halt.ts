/** A pre-flight halt (autonomy contract clause 1). The CLI prints the message and exits 2. */
export class PreflightHalt extends Error {
  override name = 'PreflightHalt';
}
