/**
 * What `serve` does (registered in serve-command.ts). On an empty store it first loads the real data the project
 * ships, then (unless `--no-demo`) the generated demo data where no real data exists, and prints a demo key
 * (docs/data.md, "The first start"). The app (and with it the OAuth library, which warns at import on Node 20) is
 * imported when the service starts, after the first start's loads.
 */
import { demoAgentLines, ensureDemoAgents, issueDemoAgentCredentials } from '../../agents/demo/demo-agents.js';
import { detectAndMatch } from '../../alerts/detect-and-match.js';
import { SERVER_IDENTITY } from '../../channels/mcp/server-facts.js';
import type { Config } from '../../config.js';
import { findDemoAccount, issueDemoKey, issueDemoOwnerLink } from '../../demo/demo-account.js';
import { loadDemo } from '../../demo/load-demo.js';
import { importReal } from '../../ingest/real/import-real.js';
import { shareCorpus } from '../../integrity/corpus.js';
import { observeBacklog } from '../../observability/pipeline-observer.js';
import { startObservability } from '../../observability/start-observability.js';
import { pipelineBacklog } from '../../pipeline/backlog.js';
import { startPipeline } from '../../pipeline/start-pipeline.js';
import { describeStore, openStore } from '../../store/open-store.js';
import type { Store } from '../../store/store.js';
import { cliContext } from '../context.js';
import { closeOnSignals } from '../graceful-shutdown.js';

export async function serve(config: Config, demo: boolean): Promise<void> {
  const now = new Date();
  // Migrations and the demo's load may run long: on a store of their own, whose statements have no time limit.
  const started = await cliContext(config, () => false).withStore(async (store) => {
    const firstStart = await holdsNoData(store);
    if (firstStart) {
      process.stdout.write(`Empty store (first start only): loading ${REAL_DATA}.\n`);
      await importReal(store, { now });
      if (demo) {
        process.stdout.write(`Loading the generated demo data where no real data exists: ${GENERATED_DATA}.\n`);
        await loadDemo(store, { today: now }); // the demo account, its alert rules and detection included
      } else await detectAndMatch(store, now);
    }
    // Only a store that holds the demo dataset has the demo account; a production store never gets one.
    const demoKey = demo && (await findDemoAccount(store)) ? await issueDemoKey(store, now) : undefined;
    // The demo company agents go with the demo account: created (and published) once, fresh credentials at every start.
    if (demoKey) await ensureDemoAgents(store, now, demoKey.key.account_id);
    const demoAgents = demoKey ? await issueDemoAgentCredentials(store, now) : [];
    const demoOwner = demoKey ? await issueDemoOwnerLink(store, now, config.baseUrl) : undefined;
    // What this start loaded is what the banner can name; a store filled before (`munidata demo`, a sync) says its own.
    const held = demoKey ? (firstStart ? firstStartLines : await heldLines(store)) : [];
    return { demoKey, demoAgents, demoOwner, held, loaded: store };
  });
  const { demoKey, demoAgents, demoOwner, held } = started;

  // Metrics and traces before the store and the app, whose hooks look whether they are on (docs/deploy.md).
  const observability = await startObservability(config, SERVER_IDENTITY.version);
  // Requests wait on the store at most DATABASE_TIMEOUT_MS a statement, then are answered 503 (docs/deploy.md).
  const store = openStore(config, { timeoutMs: config.databaseTimeoutMs });
  const { createApp } = await import('../../app.js');
  const app = await createApp({ config, store, logger: true });
  // Closed with the app: the listener stops and the spans not yet sent are sent.
  app.http.addHook('onClose', () => observability.close());
  await app.http.listen({ port: config.port, host: config.host });
  // The pipeline on a store of its own, whose statements have no time limit (a detection batch may run long).
  const pipelineStore = openStore(config);
  // The integrity corpus statistics that the first start's or the pipeline's detection computed serve the red flags.
  shareCorpus(started.loaded, store);
  shareCorpus(store, pipelineStore);
  const pipeline = startPipeline(config, pipelineStore, app.http.log);
  // Read on the served store, open whether or not this instance runs the pipeline (the backlog is the deployment's).
  observeBacklog(() => pipelineBacklog(store));
  // Before the banner says it listens: a SIGTERM sent on reading it must find the graceful handler in place.
  closeOnSignals(app, store, pipeline?.running);
  const lines = [
    `munidata is listening on ${config.baseUrl}  (store: ${describeStore(config)})`,
    `Docs: ${config.baseUrl}/docs`,
    `Console: ${config.baseUrl}/console`,
    pipeline ? `Pipeline: ${pipeline.description}` : 'Pipeline: off (PIPELINE_INTERVAL_S=0)',
    ...(observability.metricsUrl ? [`Metrics: ${observability.metricsUrl}/metrics`] : []),
  ];
  if (demoOwner) {
    lines.push(
      '',
      `Demo owner ${demoOwner.email}: sign in to the console with this one-time link (a new one at every start):`,
      `  ${demoOwner.link}`,
    );
  }
  if (held.length > 0) {
    lines.push(
      '',
      ...held,
      'GET /v1/sources lists each source; munidata demo remove deletes the generated data and keeps the real.',
    );
  }
  if (demoKey) {
    lines.push(
      '',
      'Demo API key (premium plan; shown once, a new one at every start):',
      `  ${demoKey.secret}`,
      '',
      `Try: curl -H "Authorization: Bearer ${demoKey.secret}" ${config.baseUrl}/v1/me`,
    );
  }
  if (demoAgents.length > 0) lines.push('', ...demoAgentLines(config.agentsUrl, demoAgents));
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** What a first start loads, as its banner says it (docs/data.md, "The first start"). */
const REAL_DATA =
  'the real data shipped in data/real/ (Portal BASE contracts published January–February 2024; INE crime rate ' +
  '2016–2022 and purchasing power 1993, 2011, 2021; ICNF burnt area by municipality of ignition 1980–2021)';
const GENERATED_DATA =
  'every other indicator series, the open calls for tenders (announcements) and the demo account with its alert rules';

const firstStartLines = [`Real data: ${REAL_DATA}.`, `Generated (synthetic: true on every record): ${GENERATED_DATA}.`];

/**
 * The contracts a store filled before this start holds, real or generated: a store of `munidata demo` has generated
 * contracts and no real one, and must not be told as holding the Portal BASE copy.
 */
async function heldLines(store: Store): Promise<string[]> {
  const holds = async (source: string) => (await store.listContracts({ source }, { limit: 1 })).length > 0;
  const [real, generated] = [await holds('base'), await holds('demo')];
  const said = [
    ...(real ? ['real (source base, synthetic: false)'] : []),
    ...(generated ? ['generated by the demo (source demo, synthetic: true): not real contracts'] : []),
  ];
  return [`Contracts held: ${said.length > 0 ? said.join(' and ') : 'none'}.`];
}

/**
 * No series and no contracts: the store has only what `migrate` seeds (municipalities, catalogue, plans), so a
 * first start may fill it. A store holding data of either kind is left as it is.
 */
async function holdsNoData(store: Store): Promise<boolean> {
  return (await store.countObservations()) === 0 && (await store.listContracts({}, { limit: 1 })).length === 0;
}
