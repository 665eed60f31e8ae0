import { describe, expect, it } from "vitest";
import doc from "../../docs/lwir.md?raw";
import { LWIR_FINDING_CODES } from "../../src/lwir/finding-codes.ts";

describe("docs/lwir.md", () => {
  it("lists every finding code with the meaning the code catalog gives", () => {
    for (const [code, meaning] of Object.entries(LWIR_FINDING_CODES)) {
      expect(doc, code).toContain(`| \`${code}\` | ${meaning.replace(/\|/g, "\\|")} |`);
    }
  });

  it("lists no code the catalog lacks", () => {
    const findings = doc.slice(doc.indexOf("## Findings"), doc.indexOf("## Versions and locks"));
    const listed = [...findings.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(Object.keys(LWIR_FINDING_CODES).sort());
  });
});
