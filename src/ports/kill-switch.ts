/** Polled between skills only. Returns a human-readable reason when set, otherwise null. */
export interface KillSwitch {
  check(): Promise<string | null>;
}
