import { describe, expect, it } from "vitest";
import { REDACTED, redactForDisplay } from "../../src/inspector/redact.ts";

describe("redactForDisplay", () => {
  it("hides values under secret-looking keys at any depth, but not token counts", () => {
    expect(
      redactForDisplay({
        apiKey: "sk-live-1",
        nested: [{ Authorization: "Bearer x", accessToken: "t", password: "p" }],
        usage: { inputTokens: 3, totalTokens: 5 },
        text: "fine",
      }),
    ).toEqual({
      apiKey: REDACTED,
      nested: [{ Authorization: REDACTED, accessToken: REDACTED, password: REDACTED }],
      usage: { inputTokens: 3, totalTokens: 5 },
      text: "fine",
    });
  });

  it("cuts long strings, wide arrays and deep nesting, and describes blob references", () => {
    expect(redactForDisplay("x".repeat(12), { maxString: 5 })).toBe("xxxxx… (7 more characters)");
    expect(redactForDisplay([1, 2, 3, 4], { maxItems: 2 })).toEqual([1, 2, "… (2 more items)"]);
    expect(redactForDisplay({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toEqual({ a: { b: "…" } });
    expect(redactForDisplay({ $blob: "sha256:ab", bytes: 300_000 })).toBe("[stored blob sha256:ab, 300000 bytes]");
  });

  it("leaves the input unchanged", () => {
    const input = { secret: "s" };
    redactForDisplay(input);
    expect(input).toEqual({ secret: "s" });
  });
});
