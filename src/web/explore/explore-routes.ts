/**
 * `/explore`: the explorer's pages, its static files and its data routes (docs/explorer.md), registered in the
 * signed-in scope of the site (the console's cookies, CSRF and security headers). Pages are for signed-in users:
 * a visitor is sent to sign in; a plan without a view's data domain is told so.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../core/core.js';
import type { ReferenceData } from '../../core/reference.js';
import { type ApiError, ERROR_KINDS, toApiError } from '../../lib/errors.js';
import { Nif } from '../../operations/procurement/inputs.js';
import type { Registry } from '../../operations/registry.js';
import { type Asset, loadAssets, loadDrawingAssets } from './assets.js';
import { DETAIL_PATHS } from './detail-paths.js';
import { registerExplorerApi } from './explore-api.js';
import { type PageFacts, renderPage, renderRefusal, VIEW_DOMAIN, type View } from './pages.js';
import { admitViewer } from './viewer.js';

export function registerExplorer(app: FastifyInstance, core: Core, registry: Registry): void {
  // Which /v1 requests the explorer answers as CSV: its pages offer a CSV link for those alone.
  const restPaths = registerExplorerApi(app, core, registry);
  const page = (
    request: FastifyRequest,
    reply: FastifyReply,
    view: View,
    extra: Partial<PageFacts> = {},
  ): Promise<FastifyReply> => sendPage(core, request, reply, view, { restPaths, ...extra });
  registerDetails(app, core, page);

  const capabilities = explorerCapabilities(registry);
  serveAssets(app, '/explore/assets/:name', loadAssets());
  serveAssets(app, '/explore/draw/:name', loadDrawingAssets());

  app.get('/explore', (request, reply) => page(request, reply, 'map', { params: capabilities }));
  // The procurement, integrity and signals views name and filter municipalities: the list of the 308 comes with the
  // page.
  const withPlaces = async (): Promise<Partial<PageFacts>> => ({
    params: { municipalities: placesOf(await core.reference()) },
  });
  app.get('/explore/procurement', async (request, reply) => page(request, reply, 'procurement', await withPlaces()));
  app.get('/explore/integrity', async (request, reply) => page(request, reply, 'integrity', await withPlaces()));
  app.get('/explore/signals', async (request, reply) => page(request, reply, 'signals', await withPlaces()));
  app.get('/explore/municipalities/:ref', async (request, reply) => {
    const ref = (request.params as { ref: string }).ref;
    const municipality = (await core.reference()).municipality(ref);
    if (!municipality) {
      return refuse(
        reply,
        404,
        'No such municipality',
        `No municipality has the code or slug “${ref}”. Codes have 4 digits (Lisboa is 1106).`,
      );
    }
    return page(request, reply, 'municipality', {
      heading: municipality.name,
      params: {
        ...capabilities,
        municipality: {
          code: municipality.code,
          slug: municipality.slug,
          name: municipality.name,
          district: municipality.district,
        },
      },
    });
  });
}

/**
 * The detail views: a contract, a buyer or supplier, a signal — each the API's own record of it, opened from the
 * tables and charts that name it. The address's identifier must have the form the API's takes; the API then says
 * whether the thing exists.
 */
const DETAILS: readonly { view: View; path: string; param: string; form: RegExp; what: string }[] = [
  {
    view: 'contract',
    path: `${DETAIL_PATHS.contract}:id`,
    param: 'id',
    form: /^[1-9]\d{0,14}$/,
    what: 'A contract id is a whole number.',
  },
  {
    view: 'entity',
    path: `${DETAIL_PATHS.entity}:nif`,
    param: 'nif',
    form: new RegExp(Nif.pattern as string),
    what: 'A tax number is a Portuguese NIF (9 digits) or a foreign tax id as the procurement portal publishes it.',
  },
  {
    view: 'signal',
    path: `${DETAIL_PATHS.signal}:id`,
    param: 'id',
    form: /^[1-9]\d{0,14}$/,
    what: 'A signal id is a whole number.',
  },
];

type SendPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  view: View,
  extra?: Partial<PageFacts>,
) => Promise<FastifyReply>;

function registerDetails(app: FastifyInstance, core: Core, page: SendPage): void {
  for (const { view, path, param, form, what } of DETAILS) {
    app.get(path, async (request, reply) => {
      const value = (request.params as Record<string, string>)[param];
      if (!form.test(value)) return refuse(reply, 404, 'Not found', `There is nothing at this address. ${what}`);
      // Each names municipalities (by code or id): their names come with the page.
      const places = placesOf(await core.reference());
      return page(request, reply, view, { params: { [param]: value, municipalities: places } });
    });
  }
}

async function sendPage(
  core: Core,
  request: FastifyRequest,
  reply: FastifyReply,
  view: View,
  extra: Partial<PageFacts> = {},
): Promise<FastifyReply> {
  let domains: PageFacts['domains'];
  try {
    const admission = await admitViewer(core, request, reply);
    if (!admission) return reply;
    domains = admission.caller.plan.api_access ? admission.caller.plan.domains : [];
  } catch (error) {
    const apiError = toApiError(error);
    return refuse(reply, ERROR_KINDS[apiError.kind].status, ERROR_KINDS[apiError.kind].title, detailOf(apiError));
  }
  if (!domains.includes(VIEW_DOMAIN[view])) {
    return refuse(
      reply,
      403,
      'Not in your plan',
      `This view shows ${VIEW_DOMAIN[view]} data, which your plan does not include.`,
    );
  }
  return reply
    .header('cache-control', 'private, no-store')
    .type('text/html; charset=utf-8')
    .send(renderPage({ view, baseUrl: core.baseUrl, domains, ...extra }));
}

function refuse(reply: FastifyReply, status: number, title: string, detail: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(renderRefusal(status, title, detail));
}

function detailOf(error: ApiError): string {
  return error.detail ?? ERROR_KINDS[error.kind].title;
}

/** What the view scripts may ask of the API beyond today's operations, read from the operations' input schemas. */
function explorerCapabilities(registry: Registry): Record<string, boolean | number> {
  const inputOf = (name: string) => registry.all.find((op) => op.name === name)?.input.properties ?? {};
  const snapshot = inputOf('indicators_snapshot');
  return {
    snapshotTakesDate: 'date' in snapshot,
    /** The largest snapshot page: every municipality in one request where the operation allows it. */
    snapshotLimit: Math.min(308, (snapshot.limit as { maximum?: number } | undefined)?.maximum ?? 200),
    mediansOperation: registry.all.some((op) => op.name === 'indicators_medians'),
  };
}

/**
 * Id, code, name and district of each municipality: reference data, the same for every viewer (signals name their
 * municipality by its id).
 */
function placesOf(reference: ReferenceData): { id: number; code: string; name: string; district: string }[] {
  return reference.municipalities.map((m) => ({ id: m.id, code: m.code, name: m.name, district: m.district }));
}

function serveAssets(app: FastifyInstance, route: string, assets: ReadonlyMap<string, Asset>): void {
  app.get(route, (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('No such file.');
    // Revalidated on every use (no-cache): a new release is seen at once, an unchanged file costs a 304.
    reply.header('etag', asset.etag).header('cache-control', 'public, no-cache');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  });
}
