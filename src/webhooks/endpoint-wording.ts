/**
 * How a webhook registration's refusals speak to who registers it (docs/webhooks.md, Addresses). The command line
 * is the operator's, so it names the setting that allows plain http to loopback (`WEBHOOK_ALLOW_LOOPBACK=1`), the
 * resolver's code and its own option; the console speaks to an account's owner or admin, who has no say over the
 * operator's settings and no use for a resolver's code, so it says in words what the form needs.
 */

export interface EndpointWording {
  /** Why a URL that is neither https nor, where the operator allows it, http to loopback is refused. */
  notHttps(allowLoopback: boolean): string;
  /** Why a host name that gives no address is refused; `code` is the resolver's (`ENOTFOUND`). */
  unresolved(host: string, code: string): string;
  /** Why a registration that names no event is refused; `events` are the catalogue's. */
  noEvents(events: readonly string[]): string;
}

/** The operator's words (`munidata webhooks create`), and every caller's that gives none. */
export const OPERATOR_WORDING: EndpointWording = {
  notHttps: (allowLoopback) =>
    allowLoopback
      ? 'a webhook URL must be https, or http to a loopback address'
      : 'a webhook URL must be https (http only to loopback, when the operator sets WEBHOOK_ALLOW_LOOPBACK=1)',
  unresolved: (host, code) => `${host} does not resolve (${code})`,
  noEvents: (events) => `name at least one event: ${events.join(', ')}`,
};

/** An account's words, for the console's form. */
export const ACCOUNT_WORDING: EndpointWording = {
  notHttps: (allowLoopback) =>
    allowLoopback
      ? 'a webhook URL must start with https:// (http:// only to this service’s own machine)'
      : 'a webhook URL must start with https://: events are only sent over an encrypted connection',
  unresolved: (host) =>
    `no address was found for ${host}: check how it is spelt, and that the name is published in DNS`,
  noEvents: () => 'tick at least one event the endpoint takes',
};
