/**
 * Headless Chromium for the inspector's end-to-end tests: Debian's `chromium` driven by
 * playwright-core (TOOLCHAIN.md, "Browser tests"; never a downloaded browser). Used by
 * test/e2e/inspector.e2e.test.ts, which runs in the Node project.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.LITTLE_CHROMIUM ?? "/usr/bin/chromium";
/** Screenshots land here (gitignored). */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, "../../test-output/inspector");

/** Launches Chromium with a fresh profile (playwright makes one per launch) and no background traffic. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does)`);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** Signs in through the login form the way a person would, starting from `path`. */
export async function signIn(page: Page, base: string, token: string, path = "/runs"): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.waitForURL(/\/login\?next=/);
  await page.fill("#token", token);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/login")), page.click("button[type=submit]")]);
}

/** Saves a PNG under test-output/inspector; `fullPage: false` is quicker, for a moment that passes. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
