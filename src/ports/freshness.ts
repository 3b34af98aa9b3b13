/** When a skill last ran: `results.tsv` mtime (CLI) or a recorded time on the state branch (Action). */
export interface Freshness {
  lastRunAt(skill: string): Promise<Date | null>;
}
