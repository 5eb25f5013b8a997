/**
 * The signed-in part of the site (docs/console.md, "Pages that need a session"): one Fastify scope with cookies,
 * form bodies, CSRF tokens and security headers, each from its Fastify plugin, and `requireUser`, the one way a
 * page of that scope gets the signed-in user. The console registers its pages here; so may any other page that
 * needs a session (register it inside the scope `registerSignedInScope` prepares).
 */

import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counters } from '../../access/counters.js';
import type { DailyUsage } from '../../access/daily-usage.js';
import { resumeSession } from '../../admin/sessions.js';
import { withIndefinite } from '../../lib/english-articles.js';
import type { SessionRecord, UserRecord, UserRole } from '../../store/console/console-records.js';
import type { AccountRecord, PlanRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { WebhookEndpointRecord } from '../../store/webhooks/records.js';
import { standingNotices } from '../../webhooks/endpoints.js';
import { type ConsoleCookies, consoleCookies } from './cookies.js';
import { ConsoleRefusal, renderRefusal } from './refusal.js';

export interface SignedInDeps {
  readonly store: Store;
  readonly counters: Counters;
  /** Flushed before the usage page reads the daily counts, so that they include this instance's latest. */
  readonly dailyUsage: DailyUsage;
  readonly baseUrl: string;
  /** The public address of the company-agent host (its cards, A2A and MCP addresses). */
  readonly agentsUrl: string;
  readonly clock: () => number;
  /** PIPELINE_INTERVAL_S: what the pages say of when a new rule is matched, and the operators' pipeline page. */
  readonly pipelineIntervalS: number;
  /** CONSOLE_OPERATORS: the users who see the pipeline's status. */
  readonly consoleOperators: readonly string[];
  /** WEBHOOK_ALLOW_LOOPBACK: endpoints registered in the console are checked as the CLI checks them. */
  readonly webhookAllowLoopback: boolean;
}

/** What a page of the scope knows about who is signed in. */
export interface SignedIn {
  readonly user: UserRecord;
  readonly account: AccountRecord;
  readonly plan: PlanRecord;
  readonly session: SessionRecord;
  /** The cookie value of this session (to keep it when signing out the others). */
  readonly token: string;
  /** Named in CONSOLE_OPERATORS: sees the pipeline's status. */
  readonly operator: boolean;
  /** The account's endpoints disabled without it and not acknowledged: every console page shows a notice of them. */
  readonly webhookNotices: readonly WebhookEndpointRecord[];
}

declare module 'fastify' {
  interface FastifyInstance {
    signedInDeps: SignedInDeps;
    consoleCookies: ConsoleCookies;
  }
}

export async function registerSignedInScope(scope: FastifyInstance, deps: SignedInDeps): Promise<void> {
  const cookies = consoleCookies(deps.baseUrl);
  const https = cookies.options.secure === true;
  scope.decorate('signedInDeps', deps);
  scope.decorate('consoleCookies', cookies);
  await scope.register(cookie);
  await scope.register(formbody, { bodyLimit: 512 * 1024 });
  await scope.register(csrf, { cookieKey: cookies.csrf, cookieOpts: cookies.options });
  await scope.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        ...(https && { upgradeInsecureRequests: [] }),
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https,
    crossOriginEmbedderPolicy: false,
  });
  scope.addHook('onRequest', (_request, reply, done) => {
    reply.header('cache-control', 'no-store');
    done();
  });
  // Every state-changing request of the scope carries the CSRF token of its form (field `_csrf`).
  scope.addHook('preHandler', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done();
    scope.csrfProtection(request, reply, done);
  });
  scope.setErrorHandler((error, request, reply) => {
    const refusal =
      error instanceof ConsoleRefusal
        ? error
        : (error as { code?: string }).code?.startsWith('FST_CSRF')
          ? new ConsoleRefusal(
              403,
              'This form has expired or did not come from this site. Go back, reload the page and try again.',
            )
          : (error as { statusCode?: number }).statusCode !== undefined &&
              (error as { statusCode: number }).statusCode < 500
            ? new ConsoleRefusal((error as { statusCode: number }).statusCode, (error as Error).message)
            : undefined;
    if (!refusal) request.log.error(error);
    return renderRefusal(
      reply,
      refusal ?? new ConsoleRefusal(500, 'Something went wrong on our side. Try again in a moment.'),
    );
  });
}

/**
 * The signed-in user of this request, or undefined after answering: a GET goes to the sign-in page (and back
 * here after it), anything else is refused with 401. Use it first in every handler of a page that needs a
 * session: `const who = await requireUser(request, reply); if (!who) return reply;`
 */
export async function requireUser(request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | undefined> {
  const { store, clock, consoleOperators } = request.server.signedInDeps;
  const token = request.cookies[request.server.consoleCookies.session];
  const resumed = token ? await resumeSession(store, token, new Date(clock())) : undefined;
  const account = resumed && (await store.getAccount(resumed.user.account_id));
  const plan = account && (await store.getPlan(account.plan_code));
  if (resumed && account && plan && token) {
    const operator = consoleOperators.includes(resumed.user.email.toLowerCase());
    const webhookNotices = standingNotices(await store.webhooks.listEndpoints(account.id));
    return { ...resumed, account, plan, token, operator, webhookNotices };
  }
  if (request.method === 'GET') {
    const next = encodeURIComponent(request.url);
    reply.redirect(`/console/sign-in?next=${next}`, 303);
  } else {
    await renderRefusal(reply, new ConsoleRefusal(401, 'Your session has ended. Sign in again.'));
  }
  return undefined;
}

/** The roles that change the account's settings (alerts, webhooks); the others read them. */
export const ACCOUNT_EDITORS = ['owner', 'admin'] as const satisfies readonly UserRole[];

export function canEdit(who: SignedIn): boolean {
  return (ACCOUNT_EDITORS as readonly string[]).includes(who.user.role);
}

/** Refuses (403) a user whose role is not one of `roles`: every check of a role is made on the server. */
export function requireRole(who: SignedIn, ...roles: UserRole[]): void {
  if (!roles.includes(who.user.role)) {
    throw new ConsoleRefusal(
      403,
      `This needs the role ${roles.join(' or ')}; you are ${withIndefinite(who.user.role)}.`,
    );
  }
}
