/**
 * A scrape of a metrics listener, read by a Prometheus text-format parser (not by the service's own code): its
 * families by name, and the sum of a family's samples whose labels match. The parser folds a histogram with labels
 * into one sample without them, so histograms are read as the plain series they are made of (`…_bucket`, `…_sum`,
 * `…_count`, each a family here).
 */
import parsePrometheusTextFormat, { type Family } from 'parse-prometheus-text-format';

export interface Scrape {
  readonly text: string;
  readonly families: ReadonlyMap<string, Family>;
  /** Sum of the samples of `name` whose labels include `labels`. */
  total(name: string, labels?: Record<string, string>): number;
}

export async function scrape(metricsUrl: string): Promise<Scrape> {
  const res = await fetch(`${metricsUrl}/metrics`);
  if (res.status !== 200) throw new Error(`scrape answered ${res.status}`);
  const text = await res.text();
  const plain = text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped');
  // A series of such a histogram starts a family again each time it comes back: they are merged by name.
  const families = new Map<string, Family>();
  for (const family of parsePrometheusTextFormat(plain)) {
    const seen = families.get(family.name);
    families.set(family.name, seen ? { ...seen, metrics: [...seen.metrics, ...family.metrics] } : family);
  }
  return {
    text,
    families,
    total(name, labels = {}) {
      const family = families.get(name);
      if (!family) throw new Error(`no family ${name} in the scrape`);
      return family.metrics
        .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value))
        .reduce((sum, sample) => sum + Number(sample.value ?? 0), 0);
    },
  };
}
