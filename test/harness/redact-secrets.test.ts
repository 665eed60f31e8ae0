import { describe, expect, it } from "vitest";
import { secretRedactor } from "../../src/harness/redact-secrets.ts";

const SECRET = "sk-live-Zq9/+canary-7731";
const redact = secretRedactor({ CRM_TOKEN: SECRET });
const scrub = (value: unknown) => JSON.stringify(redact?.value(value));
const hex = (text: string) => Buffer.from(text).toString("hex");

describe("secretRedactor", () => {
  it("replaces the plain, base64, base64url, hex and URL-encoded forms in values and keys", () => {
    const forms = [
      SECRET,
      btoa(SECRET),
      btoa(SECRET).replace(/=+$/, ""),
      hex(SECRET),
      hex(SECRET).toUpperCase(),
      encodeURIComponent(SECRET),
    ];
    const out = scrub({ list: forms.map((f) => `before ${f} after`), [SECRET]: 1, n: 42, ok: true });
    for (const form of forms) expect(out).not.toContain(form);
    expect(out).toContain("[redacted:CRM_TOKEN]");
    expect(JSON.parse(out)).toMatchObject({ n: 42, ok: true });
  });

  it("finds the secret inside base64 of a longer text at every byte alignment (a Basic auth header)", () => {
    for (const prefix of ["", "u", "us", "user:", "ab:", "Bearer "]) {
      for (const suffix of ["", "!", "?x", "&more=1"]) {
        const header = `Basic ${btoa(prefix + SECRET + suffix)}`;
        const out = scrub({ header });
        expect(out, `${prefix}|${suffix}`).toContain("[redacted:CRM_TOKEN]");
        // Nothing that decodes back to the secret is left.
        const left = /Basic ([A-Za-z0-9+/=]*)/.exec(JSON.parse(out).header)?.[1] ?? "";
        expect(left.length).toBeLessThan(btoa(SECRET).length - 8);
      }
    }
  });

  it("leaves other text alone, and ignores secrets too short to search for", () => {
    expect(scrub({ note: "nothing secret here", b64: btoa("an unrelated value of some length") })).not.toContain("redacted");
    expect(secretRedactor({ PIN: "1234" })).toBeUndefined();
  });

  it("redacts whole events, keeping their type", () => {
    const [event] = redact?.([{ type: "RunFailed", payload: { causeCode: "step_failed", message: `bad token ${SECRET}` } }]) ?? [];
    expect(event).toEqual({ type: "RunFailed", payload: { causeCode: "step_failed", message: "bad token [redacted:CRM_TOKEN]" } });
  });
});
