/**
 * The App's monitoring figures as Prometheus text (exposition format 0.0.4), for `GET /metrics`
 * (docs/app.md § Monitoring). Pure: the counters are plain numbers kept here, the gauges are handed in
 * by the caller (src/app/monitoring.ts reads the queue and the process), and `renderMetrics` turns
 * families of samples into the text a Prometheus scrape expects. Prometheus was chosen over log lines
 * because a scrape sees every replica's figures at the time they are asked for, and rates (rounds per
 * hour) follow from counters with `rate()`.
 */

export type MetricType = 'counter' | 'gauge';

export interface MetricSample {
  labels?: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  /** `[a-zA-Z_:][a-zA-Z0-9_:]*`; counters end in `_total` by convention. */
  name: string;
  help: string;
  type: MetricType;
  samples: readonly MetricSample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** HELP text escapes backslash and line feed; label values escape the double quote as well. */
const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (text: string) => escapeHelp(text).replace(/"/g, '\\"');

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function formatLabels(labels: Readonly<Record<string, string>> | undefined, family: string): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return '';
  for (const [name] of entries) {
    if (!LABEL_NAME.test(name) || name.startsWith('__'))
      throw new Error(`metric ${family}: "${name}" is not a label name Prometheus accepts`);
  }
  return `{${entries.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(',')}}`;
}

/** The text of a scrape: each family's HELP and TYPE, then its samples, one per line, ending in a line feed. */
export function renderMetrics(families: readonly MetricFamily[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const family of families) {
    if (!METRIC_NAME.test(family.name))
      throw new Error(`"${family.name}" is not a metric name Prometheus accepts`);
    if (seen.has(family.name)) throw new Error(`metric ${family.name} is given twice`);
    seen.add(family.name);
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      if (family.type === 'counter' && !(sample.value >= 0))
        throw new Error(`counter ${family.name} has the value ${sample.value}; a counter never goes below 0`);
      lines.push(`${family.name}${formatLabels(sample.labels, family.name)} ${formatValue(sample.value)}`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The content type of format 0.0.4, which every Prometheus version scrapes. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** One labelled counter: a value per label set, each only ever increased. */
export class Counter {
  readonly name: string;
  readonly help: string;
  readonly #labelName: string | undefined;
  readonly #values = new Map<string, number>();

  /** `labelName` names the one label this counter is split by (`kind`, `outcome`), if any. */
  constructor(name: string, help: string, labelName?: string, initial: readonly string[] = []) {
    this.name = name;
    this.help = help;
    this.#labelName = labelName;
    // Label values known in advance are shown at 0, so `rate()` sees the first increase.
    for (const value of labelName ? initial : ['']) this.#values.set(value, 0);
  }

  inc(label = '', by = 1): void {
    if (!(by >= 0)) throw new Error(`counter ${this.name}: cannot be increased by ${by}`);
    this.#values.set(label, (this.#values.get(label) ?? 0) + by);
  }

  value(label = ''): number {
    return this.#values.get(label) ?? 0;
  }

  family(): MetricFamily {
    const labelName = this.#labelName;
    return {
      name: this.name,
      help: this.help,
      type: 'counter',
      samples: [...this.#values].map(([label, value]) =>
        labelName ? { labels: { [labelName]: label }, value } : { value },
      ),
    };
  }
}
