/**
 * Connected apps (docs/oauth.md, Revocation): the grants an account holder gave, as the console and
 * `munidata oauth grants list|revoke` show and end them. Revoking removes the grant with its codes, refresh and
 * access tokens, and announces it, so that no instance accepts them from the next request on.
 */
import { isScope, type Scope } from '../lib/domains.js';
import { oauthResource } from '../lib/oauth-resource.js';
import type { AuthorizationServer } from './authorization-server.js';
import { type ClientOrigin, clientOrigin } from './client-policy.js';

export interface ConnectedApp {
  readonly grantId: string;
  readonly accountId: number;
  readonly clientId: string;
  readonly clientName: string;
  readonly origin: ClientOrigin;
  readonly scopes: readonly Scope[];
  readonly connectedAt: string;
  readonly firstUsedAt: string | null;
  readonly lastUsedAt: string | null;
}

/** The live grants of an account (every account's when undefined), oldest first. */
export async function listConnectedApps(server: AuthorizationServer, accountId?: number): Promise<ConnectedApp[]> {
  const records = await server.store.oauthList(
    'Grant',
    Date.now(),
    accountId === undefined ? {} : { accountId: String(accountId) },
  );
  const resource = oauthResource(server.provider.issuer);
  const apps: ConnectedApp[] = [];
  for (const record of records) {
    const payload = record.payload as {
      accountId?: string;
      clientId?: string;
      iat?: number;
      resources?: Record<string, string>;
    };
    const clientId = payload.clientId ?? '';
    const client = await server.provider.Client.find(clientId).catch(() => undefined);
    apps.push({
      grantId: record.id,
      accountId: Number(payload.accountId),
      clientId,
      clientName: client?.clientName ?? clientId,
      origin: clientOrigin(clientId, client?.metadata() as Record<string, unknown> | undefined),
      scopes: (payload.resources?.[resource] ?? '').split(' ').filter(isScope),
      connectedAt: new Date((payload.iat ?? 0) * 1000).toISOString(),
      firstUsedAt: record.firstUsedAtMs === null ? null : new Date(record.firstUsedAtMs).toISOString(),
      lastUsedAt: record.lastUsedAtMs === null ? null : new Date(record.lastUsedAtMs).toISOString(),
    });
  }
  return apps.sort((a, b) => a.connectedAt.localeCompare(b.connectedAt));
}

/**
 * Ends a grant (of `accountId` when given: another account's is as unknown as a missing one); false when there is
 * no such live grant.
 */
export async function revokeGrant(server: AuthorizationServer, grantId: string, accountId?: number): Promise<boolean> {
  const record = await server.store.oauthFind('Grant', grantId, Date.now());
  if (!record) return false;
  if (accountId !== undefined && String(record.payload.accountId) !== String(accountId)) return false;
  await server.store.oauthRevokeGrant(grantId);
  await server.revocations.announce(grantId);
  return true;
}
