import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** Where the tests leave a picture of each screen (kept out of git). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots', import.meta.url));

/** Saves what the page shows now (the viewport) as `<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  // Let fonts settle and the caret stop blinking so pictures are stable between runs.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path, caret: 'hide', animations: 'disabled' });
  return path;
}
