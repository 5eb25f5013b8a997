#!/usr/bin/env node
// The published entry point: the compiled CLI (built by `npm install` through the `prepare` script).
import '../dist/main.js';
