#!/usr/bin/env -S node --max-semi-space-size=64
// The published entry point: the compiled CLI (built by `npm install` through the `prepare` script). A young
// generation of 64 MB semi-spaces: detection makes many short-lived records, and with the default 16 MB they outlive
// scavenges and are collected again as old (docs/deploy.md, "Node's memory").
import '../dist/main.js';
