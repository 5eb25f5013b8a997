/** The JSON-RPC-over-HTTP toolkit of the agent channels: import it from here. */
export * from './depth.js';
export * from './endpoint.js';
export * from './http-replies.js';
export * from './jsonrpc.js';
export * from './raw-body.js';
