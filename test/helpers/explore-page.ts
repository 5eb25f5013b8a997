/**
 * The explorer as its browser tests read it: a desktop (1280 px) and a phone (390 px) signed in as a person signs in,
 * and a page opened in either, answered 200, with every script error or console error it raises collected in
 * `errors` (each file checks at its end that there were none), named by its path.
 */
import type { APIResponse, Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { signInInBrowser } from './browser-sign-in.js';

export interface ExplorerContexts {
  readonly desktop: BrowserContext;
  readonly phone: BrowserContext;
}

/** A desktop and a phone, each signed in as `who`: the explorer sends a visitor to the sign-in page, then back. */
export async function explorerContexts(
  browser: Browser,
  base: string,
  who: { email: string; password: string },
): Promise<ExplorerContexts> {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const context of [desktop, phone]) {
    const page = await context.newPage();
    await signInInBrowser(page, base, who, { from: '/explore', landing: '/explore' });
    await page.close();
  }
  return { desktop, phone };
}

export async function openExplorePage(
  context: BrowserContext,
  url: string,
  path: string,
  errors: string[],
): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`${path}: ${error}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${path}: ${message.text()}`);
  });
  const response = await page.goto(url);
  expect(response?.status(), path).toBe(200);
  return page;
}

/**
 * A GET with the context's session, on a connection of its own (`Connection: close`). Playwright's request client does
 * not retry as a browser does when the server closes an idle kept-alive connection (after 5 s, docs/deploy.md,
 * Timeouts) just as the request goes out on it; on a loaded machine that window widens, and the read failed with
 * ECONNRESET although the server answered every request it received.
 */
export function signedInGet(context: BrowserContext, url: string): Promise<APIResponse> {
  return context.request.get(url, { headers: { connection: 'close' } });
}
