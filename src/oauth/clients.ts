/**
 * Pre-registered clients (docs/oauth.md, Clients): an operator registers an app by name and redirect URIs with
 * `munidata oauth clients create`; it is a public client (PKCE, no secret), checked by the same rules as any
 * registration, and shown on the consent page as registered by the operator.
 */
import { randomBytes } from 'node:crypto';
import { AdminError } from '../lib/admin-error.js';
import type { AuthorizationServer } from './authorization-server.js';

export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientName: string;
  readonly redirectUris: readonly string[];
}

export async function createClient(
  server: AuthorizationServer,
  o: { name: string; redirectUris: readonly string[] },
): Promise<PreRegisteredClient> {
  const clientId = `mdc_${randomBytes(16).toString('base64url')}`;
  const metadata = {
    client_id: clientId,
    client_name: o.name,
    redirect_uris: [...o.redirectUris],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    munidata_origin: 'cli',
  };
  try {
    await server.provider.Client.validate(metadata as never);
  } catch (error) {
    const reason = (error as { error_description?: string }).error_description ?? (error as Error).message;
    throw new AdminError(`The client is not valid: ${reason}`);
  }
  await server.store.oauthUpsert('Client', clientId, metadata, null);
  return { clientId, clientName: o.name, redirectUris: metadata.redirect_uris };
}

/** Pre-registered and dynamically registered clients (metadata-document clients are not stored: they are fetched). */
export async function listClients(
  server: AuthorizationServer,
): Promise<(PreRegisteredClient & { origin: 'cli' | 'registration' })[]> {
  const records = await server.store.oauthList('Client', Date.now());
  return records.map((r) => ({
    clientId: r.id,
    clientName: String(r.payload.client_name ?? ''),
    redirectUris: (r.payload.redirect_uris as string[] | undefined) ?? [],
    origin: r.payload.munidata_origin === 'cli' ? 'cli' : 'registration',
  }));
}

/** Deletes a client and every grant given to it (with their tokens). */
export async function deleteClient(server: AuthorizationServer, clientId: string): Promise<void> {
  const record = await server.store.oauthFind('Client', clientId, Date.now());
  if (!record) throw new AdminError(`No client ${clientId}.`);
  for (const grant of await server.store.oauthList('Grant', Date.now())) {
    if (grant.payload.clientId === clientId) {
      await server.store.oauthRevokeGrant(grant.id);
      await server.revocations.announce(grant.id);
    }
  }
  await server.store.oauthDestroy('Client', clientId);
}
