/**
 * Signing in to the console in a real browser, as a person does (docs/console.md, Sign-in, sessions and cookies):
 * open a page, be shown the sign-in form, fill in the email and the password, submit, and land where the console
 * sends a signed-in user.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Opens `from` (the sign-in page unless told; any console or explorer page sends a visitor there), signs in as
 * `who` and waits for `landing` (the keys page unless told; the page the visitor came from when it was not the
 * sign-in page itself).
 */
export async function signInInBrowser(
  page: Page,
  base: string,
  who: { email: string; password: string },
  { from = '/console/sign-in', landing = '/console/keys' }: { from?: string; landing?: string } = {},
): Promise<void> {
  await page.goto(`${base}${from}`);
  expect(new URL(page.url()).pathname).toBe('/console/sign-in');
  await expect(page.locator('h1').innerText()).resolves.toBe('Sign in');
  await page.fill('#email', who.email);
  await page.fill('#password', who.password);
  await page.click('form button[type=submit]');
  await page.waitForURL(`${base}${landing}`);
}
