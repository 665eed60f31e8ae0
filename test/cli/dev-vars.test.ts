import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectionFrom } from "../../src/cli/api-client.ts";
import { readDevVars } from "../../src/cli/dev-vars.ts";

const dir = mkdtempSync(join(tmpdir(), "little-dev-vars-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the CLI finds a dev server on another port from the project's .dev.vars", () => {
  it("reads KEY=value lines (quotes dropped, comments skipped); no file gives nothing", () => {
    writeFileSync(join(dir, ".dev.vars"), '# comment\nLITTLE_ENV=development\nLITTLE_URL="http://localhost:8801"\n');
    expect(readDevVars(dir)).toEqual({ LITTLE_ENV: "development", LITTLE_URL: "http://localhost:8801" });
    expect(readDevVars(join(dir, "missing"))).toEqual({});
  });

  it("takes --url first, then LITTLE_URL from the environment, then from .dev.vars, then localhost:8787", () => {
    const devVars = { LITTLE_URL: "http://localhost:8801" };
    expect(connectionFrom({ url: "http://a.test" }, { LITTLE_URL: "http://b.test" }, devVars).baseUrl).toBe("http://a.test");
    expect(connectionFrom({}, { LITTLE_URL: "http://b.test" }, devVars).baseUrl).toBe("http://b.test");
    expect(connectionFrom({}, {}, devVars).baseUrl).toBe("http://localhost:8801");
    expect(connectionFrom({}, {}, {}).baseUrl).toBe("http://localhost:8787");
  });
});
