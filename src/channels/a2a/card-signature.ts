/**
 * Agent cards signed as A2A 1.0 §8.4 asks: a JWS (ES256) over the card canonicalised by RFC 8785 (JCS) without its
 * `signatures`, the payload detached, each signature in the card's `signatures` (docs/a2a.md, Signed cards). The
 * canonical form and the JWS are the A2A SDK's own (`@a2a-js/sdk`, on `jose`): its canonical form first reads the
 * card as the protocol's schema does (members equal to their default left out), which every verifier repeats, so a
 * second writing of it here could only drift from theirs. The key is the service's signing key; the protected
 * header names it (`kid`) and the JWKS that publishes it (`jku`).
 */
import { type AgentCard, generateAgentCardSignature } from '@a2a-js/sdk';

/** A private JWK (ES256, with `d`) and its `kid`. */
export interface SigningJwk {
  readonly kid?: string;
  readonly d?: string;
}

type SdkKey = Parameters<typeof generateAgentCardSignature>[0];

/** The card with `signatures` added. */
export type CardSigner = (card: Record<string, unknown>) => Promise<Record<string, unknown>>;

export function cardSigner(key: SigningJwk, jwksUrl: string): CardSigner {
  const sign = generateAgentCardSignature(key as SdkKey, { alg: 'ES256', typ: 'JOSE', kid: key.kid, jku: jwksUrl });
  // The SDK returns the card as its type sees it; the card served stays ours, with the SDK's signatures.
  return async (card) => ({ ...card, signatures: (await sign(card as unknown as AgentCard)).signatures });
}
