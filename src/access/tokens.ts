/**
 * OAuth access tokens as the authenticator sees them (docs/oauth.md): something that, given the token text and
 * the resource it must be bound to, says which account and grant it acts for, with which scopes, until when.
 * The authorization server (src/oauth) provides it; the access floor knows nothing of OAuth itself.
 */
import type { Scope } from '../lib/domains.js';

export interface VerifiedToken {
  readonly accountId: number;
  readonly grantId: string;
  readonly clientId: string;
  readonly scopes: readonly Scope[];
  readonly expiresAtMs: number;
}

export interface TokenVerifier {
  /** The token's grant, or undefined when it is unknown, revoked, or bound to another resource than `audience`. */
  verify(token: string, audience: string): Promise<VerifiedToken | undefined>;
}

/**
 * Told when grants are revoked (Disconnect, `munidata oauth grants revoke`, a reused refresh token), so that
 * cached answers are dropped at once (docs/oauth.md, Revocation).
 */
export interface GrantRevocations {
  onRevoked(listener: (grantId: string) => void): void;
}
