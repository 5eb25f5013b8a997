/**
 * An explorer page opened in a browser context as a test reads it: answered 200, and every script error or console
 * error it raises collected in `errors` (each file checks at its end that there were none), named by its path.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

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
