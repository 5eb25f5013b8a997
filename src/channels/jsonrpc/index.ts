export * from './depth.js';
export * from './http-replies.js';
export * from './jsonrpc.js';
export * from './raw-body.js';
