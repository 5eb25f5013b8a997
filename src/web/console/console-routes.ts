/** The account console under /console (docs/console.md): its assets, sign-in, and one file of routes per page. */
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core/core.js';
import { registerAccountPage } from './account-page.js';
import { registerAgentsPage } from './agents-page.js';
import { registerAlertMatchesPage } from './alert-matches-page.js';
import { registerAlertRulePage } from './alert-rule-page.js';
import { registerAlertsPage } from './alerts-page.js';
import { registerConsoleAssets } from './assets.js';
import { registerKeysPage } from './keys-page.js';
import { registerMarketplacePage } from './marketplace-page.js';
import { registerPipelinePage } from './pipeline-page.js';
import { registerSignInRoutes } from './sign-in-routes.js';
import { requireUser } from './signed-in.js';
import { registerUsagePage } from './usage-page.js';
import { registerWebhookEndpointPage } from './webhook-endpoint-page.js';
import { registerWebhooksPage } from './webhooks-page.js';

export function registerConsole(scope: FastifyInstance, core: Core): void {
  registerConsoleAssets(scope);
  registerSignInRoutes(scope);
  scope.get('/console', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    return reply.redirect('/console/keys', 303);
  });
  registerKeysPage(scope);
  registerUsagePage(scope);
  registerAlertsPage(scope);
  registerAlertRulePage(scope, core);
  registerAlertMatchesPage(scope, core);
  registerAgentsPage(scope);
  registerMarketplacePage(scope);
  registerAccountPage(scope);
  registerWebhooksPage(scope);
  registerWebhookEndpointPage(scope);
  registerPipelinePage(scope);
}
