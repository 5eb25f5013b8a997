/**
 * Debian's Chromium (installed by scripts/ensure-chromium.sh) through playwright-core, for every test that reads a
 * page in a real browser. The flags keep it off the network it would otherwise reach for at every start (updates,
 * sync, QUIC probes), which this machine refuses, and let it run as root without a GPU.
 */
import { type Browser, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
