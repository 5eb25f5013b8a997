import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
const out = readFileSync('/tmp/fs2/out.txt', 'utf8');
const link = /(http:\/\/127\.0\.0\.1:18182\/console\/link\?token=\S+)/.exec(out)[1];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
const errors = []; page.on('pageerror', (e) => errors.push(String(e))); page.on('console', (m) => console.log('C', m.text()));
await page.goto(link);
for (const [name, path] of process.argv.slice(2).map((a) => a.split('='))) {
  await page.goto(`http://127.0.0.1:18182${path}`);
  await page.locator('[data-ready]').first().waitFor({ timeout: 60000 }).catch((e) => errors.push(e.message.split('\n')[0]));
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true }); for (const id of ['figures', 'signals-timeline']) await page.locator('#' + id).screenshot({ path: `/tmp/shots/${name}-${id}.png` }).catch(() => {});
  console.log(name, await page.locator('.error, .problem').allInnerTexts(), (await page.locator('.data-mark').allInnerTexts()).length);
}
console.log('errors', errors);
await browser.close();
