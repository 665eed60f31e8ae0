import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium, signIn } from "../../inspector/browser.ts";
import { client } from "./api.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

/** What an inspector e2e file works with, once its `beforeAll` ran. */
export type Inspector = {
  /** The file's own `wrangler dev`. */
  readonly dev: WranglerDev;
  /** The API as the dev tenant. */
  readonly api: ReturnType<typeof client>;
  readonly browser: Browser;
  /** A 1280×900 browser context signed in with the dev token. */
  readonly context: BrowserContext;
};

/**
 * Registers the file's `beforeAll` and `afterAll`: starts `wrangler dev` and headless Chromium at
 * once, signs a context in as the dev tenant, then runs `setup` (more `beforeAll` work, within
 * `timeoutMs`); closes both afterwards. The answer's fields are there once `beforeAll` has run.
 *
 * @example
 * const ui = withInspector();
 * it("…", async () => { const page = await ui.context.newPage(); await page.goto(`${ui.dev.url}/runs`); });
 */
export function withInspector(setup?: (inspector: Inspector) => Promise<void>, timeoutMs?: number): Inspector {
  const inspector = {} as { -readonly [K in keyof Inspector]: Inspector[K] };
  beforeAll(async () => {
    [inspector.dev, inspector.browser] = await Promise.all([startWranglerDev(), launchChromium()]);
    inspector.api = client(inspector.dev.url, inspector.dev.devToken);
    inspector.context = await inspector.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await inspector.context.newPage();
    await signIn(page, inspector.dev.url, inspector.dev.devToken);
    await page.close();
    await setup?.(inspector);
  }, timeoutMs);
  afterAll(async () => {
    await inspector.browser?.close();
    await inspector.dev?.dispose();
  });
  return inspector;
}
