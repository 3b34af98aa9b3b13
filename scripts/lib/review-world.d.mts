/** Types of review-world.mjs, for the tests that import it (test/scripts/review-world.test.ts). */
export type Severity = 'critical' | 'major' | 'minor';
export interface Finding {
  title: string;
  detail: string;
  minimum_fix: string;
  severity: Severity;
  file: string;
}
export interface Slot {
  id: string;
  file: string;
  severity: Severity;
  good: string;
  bad: string;
  finding: Finding;
}
export interface Invented {
  id: string;
  file: string;
  severity: Severity;
  anchor: string;
  finding: Finding;
}
export const SLOTS: readonly Slot[];
export const INVENTED: readonly Invented[];
export const SLOT_BY_TITLE: Map<string, Slot>;
export const INVENTED_BY_TITLE: Map<string, Invented>;
export function baseFiles(): Record<string, string>;
export function headFiles(defective: readonly string[]): Record<string, string>;
export function presentSlots(texts: Record<string, string>): string[];
export function hasLine(text: string | undefined, line: string): boolean;
export function lineOf(text: string | undefined, line: string): number | null;
