/**
 * The A2A SDK's own client, as an A2A user would build it, pointed at an app listening on a loopback port: the
 * tests' requests for BASE_URL go to that address.
 */
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { BASE_URL } from './test-app.js';

/** A fetch that sends what is addressed to BASE_URL to the app listening at `address`. */
export function fetchVia(address: string): typeof fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return fetch(url.replace(BASE_URL, address), init);
  };
}

/** The JSON-RPC client of the agent whose card is under `url` (a deployment's URL ends in `/`). */
export function a2aClientAt(url: string, fetchImpl: typeof fetch): Promise<Client> {
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      preferredTransports: ['JSONRPC'],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  ).createFromUrl(url);
}
