import { openStore } from './dist/store/open-store.js';
import { runDetection } from './dist/detect/run-detection.js';
const store = openStore({ dbPath: process.argv[2] });
const stats = new Map();
for (const port of [store.ports.primary, store.ports.replica]) {
  for (const m of ['query', 'run']) {
    const orig = port[m].bind(port);
    port[m] = async (sql, params) => { const t = performance.now(); try { return await orig(sql, params); } finally {
      const k = sql.replace(/\s+/g, ' ').slice(0, 100); const s = stats.get(k) ?? [0, 0]; s[0]++; s[1] += performance.now() - t; stats.set(k, s); } };
  }
}
const t0 = performance.now();
const r = await runDetection(store, { now: new Date() });
console.log(r.seconds, r.integrity.contracts);
let tot = 0; for (const [, [, t]] of stats) tot += t; console.log('sql total', Math.round(tot));
[...stats].sort((a, b) => b[1][1] - a[1][1]).slice(0, 10).forEach(([k, [n, t]]) => console.log(Math.round(t) + 'ms', n, k));
