import assert from 'node:assert/strict';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A scrape, parsed: each family's type, and every sample line (histograms' _bucket/_sum/_count too). */
export class Exposition {
  constructor(
    readonly types: Map<string, string>,
    readonly samples: Sample[],
  ) {}

  /** Every series name that appears (histograms as their _bucket, _sum and _count). */
  names(): Set<string> {
    return new Set(this.samples.map((s) => s.name));
  }

  /** The samples of `name` whose labels include `labels`. */
  find(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  }

  /** The one sample of `name` with exactly these labels (0 when there is none). */
  value(name: string, labels: Record<string, string> = {}): number {
    const exact = this.find(name, labels).filter((s) => Object.keys(s.labels).length === Object.keys(labels).length);
    assert.ok(exact.length <= 1, `${name} ${JSON.stringify(labels)} matches ${exact.length} samples`);
    return exact[0]?.value ?? 0;
  }
}

/**
 * Parses the text exposition format with parse-prometheus-text-format (a real parser: it lexes every
 * sample line, labels and escapes included, and throws on a malformed one). Its histogram grouping
 * drops the labels and _sum/_count of labelled histograms, so histograms are parsed a second time as
 * untyped families: every _bucket, _sum and _count line then comes back with its labels.
 */
export function parseExposition(text: string): Exposition {
  const families = parsePrometheusTextFormat(text);
  const types = new Map(families.map((f) => [f.name, f.type]));
  const flat = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) (histogram|summary)$/gm, '# TYPE $1 untyped'));
  const samples: Sample[] = [];
  for (const family of flat) {
    for (const m of family.metrics) {
      assert.ok(m.value !== undefined, `${family.name}: a sample without a value`);
      samples.push({ name: family.name, labels: m.labels ?? {}, value: Number(m.value) });
    }
  }
  return new Exposition(types, samples);
}

/** GET `url` and parse it; asserts the status and the exposition content type. */
export async function scrape(url: string): Promise<Exposition> {
  const res = await fetch(url);
  assert.equal(res.status, 200, `GET ${url}`);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}
