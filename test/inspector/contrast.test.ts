import { describe, expect, it } from "vitest";
import { INSPECTOR_CSS } from "../../src/inspector/styles.ts";

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The stylesheet's custom properties, `--name: #hex`. */
const vars = Object.fromEntries([...INSPECTOR_CSS.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6})/g)].map((m) => [m[1], m[2]]));
const v = (name: string) => {
  const value = vars[name];
  if (!value) throw new Error(`no --${name} in the stylesheet`);
  return value;
};
const STATUSES = ["pending", "scheduled", "running", "retrying", "succeeded", "failed", "skipped", "stopped"];
/** Fixed colours the stylesheet uses for text outside the variables. */
const NODE_LABEL = v("text");
const NODE_SMALL_TEXT = "#374151";
const HEADER = { fg: "#f9fafb", bg: "#111827" };
const BUTTON = { fg: "#ffffff", bg: "#1d4ed8" };

describe("the inspector's colours (WCAG AA: 4.5:1 for text)", () => {
  const pairs: [string, string, string][] = [
    ["body text", v("text"), v("bg")],
    ["body text on panels", v("text"), v("panel")],
    ["muted text", v("muted"), v("bg")],
    ["muted text on panels", v("muted"), v("panel")],
    ["links", v("link"), v("bg")],
    ["header", HEADER.fg, HEADER.bg],
    ["buttons", BUTTON.fg, BUTTON.bg],
    ...STATUSES.flatMap((s): [string, string, string][] => [
      [`${s} badge`, v(`${s}-fg`), v(`${s}-bg`)],
      [`${s} node label`, NODE_LABEL, v(`${s}-bg`)],
      [`${s} node kind and state`, NODE_SMALL_TEXT, v(`${s}-bg`)],
    ]),
  ];

  it.each(pairs)("%s: %s on %s", (_name, fg, bg) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it("measures contrast as WCAG does", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });
});
