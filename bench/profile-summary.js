/**
 * Summarises a V8 `.cpuprofile` (from `BENCH_CPU_PROF=<dir> npm run bench`): where the full server's CPU
 * time goes, by function (self and inclusive time) and by module (our dist/ folders, each npm package,
 * node internals, GC).
 *
 *   node bench/profile-summary.js <file.cpuprofile> [top N] [requests served]
 *
 * With the number of requests the server served (run.js prints it), times are also shown per request.
 */
import { readFileSync } from 'node:fs';

const [file, topText, requestsText] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.js <file.cpuprofile> [top N] [requests served]\n');
  process.exit(2);
}
const TOP = Number(topText ?? 30);
const REQUESTS = requestsText === undefined ? undefined : Number(requestsText);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map();
const inclusive = new Map();
const selfByModule = new Map();
let total = 0;
let idle = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  const leaf = nodes.get(profile.samples[i]);
  total += dt;
  if (leaf.callFrame.functionName === '(idle)') idle += dt;
  add(self, label(leaf), dt);
  add(selfByModule, moduleOf(leaf.callFrame), dt);
  const seen = new Set();
  for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
    const key = label(nodes.get(id));
    if (seen.has(key)) continue;
    seen.add(key);
    add(inclusive, key, dt);
  }
}

const busy = total - idle;
console.log(
  `${file}\n  sampled ${(total / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s, ` +
    `busy ${(busy / 1e6).toFixed(2)} s`,
);
console.log(
  REQUESTS
    ? `  ${REQUESTS} requests: ${(busy / REQUESTS).toFixed(1)} µs busy per request ` +
        '(percentages of busy time, then µs per request)\n'
    : '  (percentages of busy time)\n',
);
print('self time by module', selfByModule, TOP);
print('self time by function', self, TOP);
print('inclusive time by function', inclusive, TOP * 2);

function print(title, map, n) {
  console.log(`── ${title}`);
  const rows = [...map]
    .filter(([k]) => !k.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n);
  for (const [key, us] of rows) {
    const perRequest = REQUESTS ? `${(us / REQUESTS).toFixed(1).padStart(7)} µs` : '';
    console.log(`  ${((100 * us) / busy).toFixed(1).padStart(5)}%${perRequest}  ${key}`);
  }
  console.log('');
}

function add(map, key, dt) {
  map.set(key, (map.get(key) ?? 0) + dt);
}

function label(node) {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${shortUrl(url)}${url ? `:${lineNumber + 1}` : ''}`;
}

function shortUrl(url) {
  if (!url) return '';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  const bench = url.indexOf('/bench/');
  if (bench >= 0) return url.slice(bench + 1);
  return url;
}

function moduleOf({ url, functionName }) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native / builtin)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return `npm:${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const dist = url.indexOf('/dist/');
  if (dist >= 0) {
    const parts = url.slice(dist + 1).split('/');
    return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.join('/');
  }
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  return url;
}
