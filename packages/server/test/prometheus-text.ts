/**
 * A strict parser of Prometheus' text exposition format (version 0.0.4), for tests: whatever it accepts, a
 * Prometheus server scrapes. It follows the format's specification ("Exposition formats" in Prometheus'
 * documentation) and throws, with the line number, on anything it does not allow:
 *
 * - lines end with `\n`, the last one too; empty lines are ignored; `#` lines other than HELP and TYPE are
 *   comments;
 * - `# HELP name text` (escapes `\\` and `\n`) and `# TYPE name counter|gauge|histogram|summary|untyped`, each
 *   at most once per metric, TYPE before the metric's first sample;
 * - a sample is `name{label="value",...} value [timestamp]`: names `[a-zA-Z_:][a-zA-Z0-9_:]*`, label names
 *   `[a-zA-Z_][a-zA-Z0-9_]*` (no `__` prefix, no duplicate), label values with the escapes `\\`, `\"` and `\n`,
 *   a value Go's ParseFloat reads (`NaN`, `+Inf`, `-Inf` included), an integer timestamp in milliseconds;
 * - a metric's lines are one block (not interleaved with another metric's), no series appears twice;
 * - a histogram has `_bucket` samples with an `le` label, ascending and cumulative, ending with `le="+Inf"`
 *   equal to its `_count`, and `_sum`/`_count` per series; a summary's `quantile` samples, `_sum` and `_count`.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  help: string | undefined;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
/** What Go's `strconv.ParseFloat` (Prometheus' parser) reads: decimals, and NaN and infinities in any case. */
const FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)$|^nan$/i;
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export class ExpositionError extends Error {}

/** The families of a scrape, by name, in the order they came. */
export function parseExposition(text: string): Map<string, MetricFamily> {
  if (text.length > 0 && !text.endsWith('\n')) throw new ExpositionError('the text must end with a line feed');
  const families = new Map<string, MetricFamily>();
  const finished = new Set<string>();
  const typed = new Set<string>();
  const series = new Set<string>();
  let current: MetricFamily | undefined;
  const lines = text.split('\n').slice(0, -1);
  lines.forEach((line, i) => {
    const fail = (why: string): never => {
      throw new ExpositionError(`line ${i + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    /** The family `name` belongs to, made current: a family left earlier may not come back. */
    const enter = (name: string): MetricFamily => {
      if (current?.name === name) return current;
      if (current) finished.add(current.name);
      if (finished.has(name)) fail(`the lines of ${name} are not together`);
      const family = families.get(name) ?? { name, type: 'untyped' as MetricType, help: undefined, samples: [] };
      families.set(name, family);
      current = family;
      return family;
    };
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const match = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (!match) return;
      const [, keyword, name, rest = ''] = match;
      if (METRIC_NAME.exec(name)?.[0] !== name) fail('invalid metric name');
      const family = enter(name);
      if (keyword === 'HELP') {
        if (family.help !== undefined) fail('a second HELP');
        family.help = unescapeHelp(rest, fail);
      } else {
        if (!TYPES.has(rest as MetricType)) fail('unknown type');
        if (family.samples.length > 0 || typed.has(name)) fail('TYPE after the metric\'s samples, or twice');
        typed.add(name);
        family.type = rest as MetricType;
      }
      return;
    }
    const sample = parseSample(line, fail);
    const family = enter(familyOf(sample.name, current));
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (series.has(key)) fail('a series appears twice');
    series.add(key);
    family.samples.push(sample);
  });
  for (const family of families.values()) checkFamily(family);
  return families;
}

/** A histogram's or summary's samples carry suffixes; they belong to the family being read. */
function familyOf(sampleName: string, current: MetricFamily | undefined): string {
  if (current && (current.type === 'histogram' || current.type === 'summary')) {
    for (const suffix of ['_bucket', '_sum', '_count']) {
      if (sampleName === `${current.name}${suffix}` && !(suffix === '_bucket' && current.type === 'summary')) return current.name;
    }
  }
  return sampleName;
}

function parseSample(line: string, fail: (why: string) => never): Sample {
  const name = METRIC_NAME.exec(line)?.[0] ?? fail('no metric name');
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    rest = rest.slice(1);
    while (!rest.startsWith('}')) {
      const label = LABEL_NAME.exec(rest)?.[0] ?? fail('invalid label name');
      if (label.startsWith('__')) fail('reserved label name');
      if (label in labels) fail('a label appears twice');
      rest = rest.slice(label.length);
      if (!rest.startsWith('="')) fail('label without ="');
      rest = rest.slice(2);
      let value = '';
      for (;;) {
        if (rest === '') fail('unterminated label value');
        const char = rest[0];
        if (char === '"') break;
        if (char === '\n') fail('line feed in a label value');
        if (char === '\\') {
          const escaped = { '\\': '\\', '"': '"', n: '\n' }[rest[1]] ?? fail('invalid escape in a label value');
          value += escaped;
          rest = rest.slice(2);
        } else {
          value += char;
          rest = rest.slice(1);
        }
      }
      labels[label] = value;
      rest = rest.slice(1);
      if (rest.startsWith(',')) rest = rest.slice(1);
      else if (!rest.startsWith('}')) fail('labels must be separated by commas');
    }
    rest = rest.slice(1);
  }
  const parts = rest.split(/[ \t]+/);
  if (parts[0] !== '' || parts.length < 2 || parts.length > 3) fail('expected a value and an optional timestamp after the name');
  if (!FLOAT.test(parts[1])) fail('invalid value');
  if (parts.length === 3 && !/^-?\d+$/.test(parts[2])) fail('invalid timestamp');
  return { name, labels, value: parseValue(parts[1]) };
}

function parseValue(text: string): number {
  if (/^[+-]?inf(inity)?$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  return /^nan$/i.test(text) ? NaN : Number(text);
}

function unescapeHelp(text: string, fail: (why: string) => never): string {
  return text.replace(/\\(.?)/g, (_all, char: string) => (char === '\\' ? '\\' : char === 'n' ? '\n' : fail('invalid escape in HELP')));
}

/** A histogram's buckets and totals, a summary's totals, per series (the labels but `le`/`quantile`). */
function checkFamily(family: MetricFamily): void {
  const fail = (why: string): never => {
    throw new ExpositionError(`${family.name}: ${why}`);
  };
  if (family.type !== 'histogram' && family.type !== 'summary') {
    for (const sample of family.samples) if (sample.name !== family.name) fail(`sample ${sample.name} in the family of ${family.name}`);
    return;
  }
  const bucketLabel = family.type === 'histogram' ? 'le' : 'quantile';
  const bySeries = new Map<string, { buckets: Array<[number, number]>; sum?: number; count?: number }>();
  for (const sample of family.samples) {
    const { [bucketLabel]: bound, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = bySeries.get(key) ?? { buckets: [] };
    bySeries.set(key, entry);
    if (sample.name === (family.type === 'histogram' ? `${family.name}_bucket` : family.name)) {
      if (bound === undefined || !FLOAT.test(bound)) fail(`a ${bucketLabel} label is missing or not a number`);
      entry.buckets.push([parseValue(bound), sample.value]);
    } else if (sample.name === `${family.name}_sum`) entry.sum = sample.value;
    else if (sample.name === `${family.name}_count`) entry.count = sample.value;
    else fail(`sample ${sample.name} in the ${family.type} ${family.name}`);
  }
  for (const entry of bySeries.values()) {
    if (entry.sum === undefined || entry.count === undefined) fail('a series without _sum or _count');
    if (family.type === 'summary') continue;
    const bounds = entry.buckets.map(([le]) => le);
    if (bounds.some((le, i) => i > 0 && le <= bounds[i - 1])) fail('buckets not in ascending order of le');
    if (bounds.at(-1) !== Infinity) fail('no le="+Inf" bucket');
    if (entry.buckets.some(([, count], i) => i > 0 && count < entry.buckets[i - 1][1])) fail('buckets not cumulative');
    if (entry.buckets.at(-1)![1] !== entry.count) fail('the +Inf bucket differs from _count');
  }
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}): number | undefined {
  const found: Sample[] = [];
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value)) found.push(sample);
    }
  }
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
