export * from './jsonrpc.js';
export * from './raw-body.js';
