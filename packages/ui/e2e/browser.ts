import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium; `.ci/run` installs it. */
export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const LAPTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** Starts headless Chromium; refuses (never skips) when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the web app's tests need Debian's Chromium ` +
        '(apt-get install --no-install-recommends chromium; .ci/run installs it)',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
}

export interface PageOptions {
  /** @default LAPTOP */
  viewport?: { width: number; height: number };
  /** A phone: touch events and a mobile viewport meta tag honoured. */
  mobile?: boolean;
}

/** A fresh context (its own cookies) and one page in it, with bounded waits. */
export async function openContext(
  browser: Browser,
  url: string,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: url,
    viewport: options.viewport ?? LAPTOP,
    isMobile: options.mobile ?? false,
    hasTouch: options.mobile ?? false,
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}
