/**
 * `npm run bench` (last step): signal detection and alert matching on the demo data set with N contracts, from
 * scratch. The cached database of bench/procurement-db.js (`.bench/procurement-<N>.db`, or its PostgreSQL database
 * with BENCH_STORE=postgres: the demo data, the demo account and its alert rules, no signals) is copied so that it
 * stays pristine; on the copy:
 *
 *   1. runDetection (procurement detectors, deadline sweep, indicator detectors, cases), then runAlertMatching;
 *   2. the same again: nothing changed, so this is what a scheduled run costs when there is nothing new;
 *   3. after an import of N/1000 new contracts (the generator's next ones, with their amendments and notices, dated
 *      as the cached data): what a scheduled run costs after a day's import;
 *   3. procurement_red_flags (its handler, in process: no HTTP, no response cache) on RED_FLAGS random contracts:
 *      the first answer is cold (it computes the corpus statistics, once per data version, and pages in what it
 *      reads), the others warm (the statistics held); p50 and p99 of the warm ones.
 *
 * Prints contracts, signals, cases, matches and seconds per step, the integrity detector's part of detection (its
 * contracts judged and seconds), and the red flags' latencies. A report, not a test: it exits 1 only when the
 * second run writes something (then detection is not idempotent and the figures mean nothing).
 *
 * Environment (bench only):
 *   BENCH_DETECT_SIZES  contract counts, comma-separated (default 1000000; 100000 when time is short)
 *   BENCH_STORE         `postgres` to run on PostgreSQL (BENCH_POSTGRES_URL, see postgres-db.js); SQLite by default
 */
import { fmt, loadLine, machineLine, SEED, table } from './lib.js';
import { BENCH_STORE, copyProcurementDb, openCopy } from './procurement-db.js';

const SIZES = (process.env.BENCH_DETECT_SIZES ?? '1000000').split(',').map(Number);
/** Random contracts whose red flags are asked for, after detection. */
const RED_FLAGS = 500;

const { runDetection } = await import('../dist/detect/run-detection.js');
const { runAlertMatching } = await import('../dist/alerts/run-matching.js');
const { procurementRedFlags } = await import('../dist/operations/procurement/procurement-red-flags.js');
const { ReferenceData } = await import('../dist/core/reference.js');
const { generateProcurement } = await import('../dist/demo/procurement/generate.js');
const { readCpvs } = await import('../dist/ingest/cpv.js');
const { readMunicipalities } = await import('../dist/ingest/municipalities.js');

async function timed(work) {
  const started = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - started) / 1000 };
}

/** A pseudo-random generator of its own (mulberry32), so that every run asks for the same contracts. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * procurement_red_flags on RED_FLAGS random contracts (ids 1…max: the demo loader numbers them from 1): the first
 * answer (cold) and the others' ms.
 */
async function redFlagLatencies(store, max) {
  const reference = new ReferenceData({
    version: await store.dataVersion(),
    municipalities: await store.listMunicipalities(),
    indicators: [],
    betaGates: [],
  });
  const next = random(42);
  const ms = [];
  for (let i = 0; i < RED_FLAGS; i++) {
    const id = 1 + Math.floor(next() * max);
    const started = performance.now();
    await procurementRedFlags.handler({ id }, { store, reference });
    ms.push(performance.now() - started);
  }
  const [cold, ...warm] = ms;
  warm.sort((a, b) => a - b);
  const at = (q) => warm[Math.min(warm.length - 1, Math.floor(q * warm.length))];
  return { cold, p50: at(0.5), p99: at(0.99), count: warm.length };
}

/**
 * Writes the generator's next `added` contracts after the `held` of the cached data (the same seed and month: its
 * contracts are a pure function of their index), with their entities, notices and amendments. The generator's chunks
 * are of 10,000 contracts: with `held` a multiple of that, the new contracts are its last chunk, written alone.
 */
async function importNew(store, held, added) {
  const [first] = await store.listContracts({ source: 'demo' }, { limit: 1 });
  const today = new Date(first.imported_at);
  const options = {
    seed: SEED,
    today,
    contracts: held + added,
    municipalities: readMunicipalities(),
    cpvs: readCpvs(),
  };
  let last;
  for (const chunk of generateProcurement({ ...options, chunkSize: Math.max(added, 1) })) last = chunk;
  const written = await store.writeProcurement(last);
  await store.refreshProcurementRollups();
  return written.contracts.inserted;
}

/** Detection then matching on a fresh copy of the N-contract database: from scratch, again, after new contracts. */
async function measure(contracts) {
  const { store, location, remove } = await copyProcurementDb(contracts);
  try {
    const count = (await store.aggregateContracts({ groupBy: ['year'] })).totals.count;
    const added = Math.max(1, Math.round(contracts / 1000));
    const runs = [];
    for (const label of ['from scratch', 'again, nothing new', `${fmt(added)} new contracts`]) {
      if (label.endsWith('new contracts') && (await importNew(store, contracts, added)) !== added)
        throw new Error(`the import of ${added} new contracts did not insert them all`);
      const now = new Date();
      const detection = await timed(() => runDetection(store, { now }));
      const matching = await timed(() => runAlertMatching(store, { now }));
      runs.push({ label, detection, matching });
      const integrity = detection.result.integrity;
      process.stdout.write(
        `  ${fmt(count)} contracts, ${label}: detection ${detection.seconds.toFixed(1)} s ` +
          `(integrity ${integrity.seconds.toFixed(1)} s, ${fmt(integrity.contracts)} contracts judged), ` +
          `matching ${matching.seconds.toFixed(1)} s\n`,
      );
    }
    // Asked of a store of their own, as `serve` gives its pipeline another (cli/actions/serve.ts): the statistics
    // detection computed are held by its store object, so the first answer is cold as a server's is.
    const served = await openCopy(location);
    try {
      return { contracts: count, runs, redFlags: await redFlagLatencies(served, count) };
    } finally {
      await served.close();
    }
  } finally {
    await store.close();
    await remove();
  }
}

console.log(`\nSignal detection and alert matching on ${BENCH_STORE} — ${machineLine()}; ${loadLine()}\n`);
const rows = [];
const flagRows = [];
let idempotent = true;
for (const size of SIZES) {
  const { contracts, runs, redFlags } = await measure(size);
  flagRows.push([
    fmt(contracts),
    redFlags.cold.toFixed(1),
    fmt(redFlags.count),
    redFlags.p50.toFixed(2),
    redFlags.p99.toFixed(2),
  ]);
  for (const { label, detection, matching } of runs) {
    const d = detection.result;
    const written = d.signals.inserted + d.signals.updated;
    if (label === 'again, nothing new' && (written > 0 || d.cases.events > 0 || matching.result.matched > 0))
      idempotent = false;
    rows.push([
      fmt(contracts),
      label,
      fmt(d.signals.inserted),
      fmt(d.signals.updated),
      fmt(d.cases.computed),
      fmt(d.cases.events),
      fmt(matching.result.matched),
      fmt(d.integrity.contracts),
      d.integrity.seconds.toFixed(1),
      detection.seconds.toFixed(1),
      matching.seconds.toFixed(1),
      (detection.seconds + matching.seconds).toFixed(1),
    ]);
  }
}
console.log(
  `\n${table(
    [
      'contracts',
      'run',
      'signals inserted',
      'signals updated',
      'cases computed',
      'case events',
      'matches',
      'integrity contracts',
      'integrity s',
      'detection s',
      'matching s',
      'total s',
    ],
    rows,
  )}`,
);
console.log(
  `\nprocurement_red_flags, random contracts, in process\n${table(
    ['contracts', 'cold (first) ms', 'warm answers', 'warm p50 ms', 'warm p99 ms'],
    flagRows,
  )}`,
);
if (!idempotent) {
  console.log('\nThe second run wrote something: detection is not idempotent, the figures mean nothing.');
  process.exit(1);
}
