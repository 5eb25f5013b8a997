/**
 * The demo's defaults, apart from the loader so that `munidata demo --help` can show them without loading the
 * generators (docs/architecture.md, "The command line").
 */
export const DEFAULT_DEMO_SEED = 42;
/**
 * Contracts in the default demo: enough for every list, filter and aggregate to show something (every
 * municipality has contracts), small enough that the first start loads in a few seconds.
 */
export const DEFAULT_DEMO_CONTRACTS = 20_000;
