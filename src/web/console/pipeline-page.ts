/**
 * The pipeline's status (docs/console.md, Operators): for the users CONSOLE_OPERATORS names, the section
 * pipeline-section.ts renders from the rows `/readyz` details. Anyone else is refused (403), as a page of a role
 * one does not have is.
 */
import type { FastifyInstance } from 'fastify';
import { page, sendHtml } from './html.js';
import { pipelineSection } from './pipeline-section.js';
import { ConsoleRefusal } from './refusal.js';
import { requireUser } from './signed-in.js';

export function registerPipelinePage(scope: FastifyInstance): void {
  const { store, pipelineIntervalS } = scope.signedInDeps;

  scope.get('/console/pipeline', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    if (!who.operator) throw new ConsoleRefusal(403, "The pipeline's status is for the service's operators.");
    return sendHtml(
      reply,
      page({
        title: 'Pipeline status',
        who,
        csrf: await reply.generateCsrf(),
        section: 'pipeline',
        body: await pipelineSection(store, pipelineIntervalS),
      }),
    );
  });
}
