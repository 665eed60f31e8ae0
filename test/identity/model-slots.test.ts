import { openai } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { resolveModelSlots, SLOT_ANIMALS, slotBaseName } from "../../src/identity/model-slots.ts";
import { digestJson, digestPrefix } from "../../src/json/digest.ts";
import { SLOT_ID_PATTERN } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";

const mock = (modelId: string, provider = "mock") => new MockLanguageModelV4({ provider, modelId });
const slot = (lm: LanguageModel, description: string, id?: string) => model(lm, id === undefined ? { description } : { description, id });

/** The animal index the documented rule picks first: hash of (provider, model id, description). */
function hashedIndex(providerId: string, modelId: string, description: string): number {
  return Number.parseInt(digestPrefix(digestJson({ providerId, modelId, description }), 8), 16) % SLOT_ANIMALS.length;
}
const animalAt = (i: number) => SLOT_ANIMALS[i % SLOT_ANIMALS.length] as string;

describe("SLOT_ANIMALS", () => {
  it("is a fixed list of 64 distinct lowercase names (changing it would change every slot id)", () => {
    expect(SLOT_ANIMALS).toHaveLength(64);
    expect(new Set(SLOT_ANIMALS).size).toBe(64);
    expect(SLOT_ANIMALS.every((a) => /^[a-z]+$/.test(a))).toBe(true);
    expect(SLOT_ANIMALS.slice(0, 4)).toEqual(["otter", "heron", "lynx", "badger"]);
    expect(SLOT_ANIMALS.at(-1)).toBe("drake");
  });
});

describe("resolveModelSlots: the seed's worked example", () => {
  it('derives "gpt-5" and "gpt-4o-mini" from the model names', () => {
    const slots = resolveModelSlots(summarizeTicket.models);
    expect(slots.map((s) => s.id)).toEqual(["gpt-5", "gpt-4o-mini"]);
    expect(slots.map((s) => s.modelId)).toEqual(["gpt-5", "gpt-4o-mini"]);
    expect(slots.map((s) => s.description)).toEqual([
      "Strong reasoning model for complex analysis.",
      "Fast model for short structured outputs.",
    ]);
    const provider = openai("gpt-5").provider;
    expect(slots.every((s) => s.providerId === provider)).toBe(true);
  });

  it("returns only plain data (no model objects)", () => {
    for (const s of resolveModelSlots(summarizeTicket.models)) {
      expect(Object.keys(s).sort()).toEqual(["description", "id", "modelId", "providerId"]);
    }
  });
});

describe("resolveModelSlots: collisions", () => {
  it("the first slot wins the clean name; the second gets <name>-<animal> picked by the hash", () => {
    const slots = resolveModelSlots([slot(mock("gpt-5"), "a"), slot(mock("gpt-5"), "b")]);
    expect(slots[0]?.id).toBe("gpt-5");
    expect(slots[1]?.id).toBe(`gpt-5-${animalAt(hashedIndex("mock", "gpt-5", "b"))}`);
  });

  it("pins the derived ids for a known input (golden values; a change here changes definition hashes)", () => {
    const ids = resolveModelSlots([slot(mock("gpt-5"), "a"), slot(mock("gpt-5"), "b"), slot(mock("gpt-5"), "c")]).map((s) => s.id);
    expect(ids).toEqual([
      "gpt-5",
      `gpt-5-${animalAt(hashedIndex("mock", "gpt-5", "b"))}`,
      `gpt-5-${animalAt(hashedIndex("mock", "gpt-5", "c"))}`,
    ]);
    expect(ids).toEqual(["gpt-5", "gpt-5-dolphin", "gpt-5-yak"]);
  });

  it("gives three slots of the same model three distinct ids, all valid slot ids", () => {
    const ids = resolveModelSlots([slot(mock("gpt-5"), "a"), slot(mock("gpt-5"), "b"), slot(mock("gpt-5"), "c")]).map((s) => s.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe("gpt-5");
    for (const id of ids.slice(1)) {
      expect(id).toMatch(/^gpt-5-[a-z]+$/);
      expect(SLOT_ANIMALS).toContain(id.slice("gpt-5-".length));
    }
    for (const id of ids) expect(id).toMatch(SLOT_ID_PATTERN);
  });

  it("reserves explicit ids first: an explicit 'gpt-5' on the second slot pushes the first slot to gpt-5-<animal>", () => {
    const first = "Strong reasoning model for complex analysis.";
    const slots = resolveModelSlots([slot(openai("gpt-5"), first), slot(openai("gpt-5"), "Second.", "gpt-5")]);
    const provider = openai("gpt-5").provider;
    expect(slots[1]?.id).toBe("gpt-5");
    expect(slots[0]?.id).toBe(`gpt-5-${animalAt(hashedIndex(provider, "gpt-5", first))}`);
  });

  it("keeps explicit ids as given even when they look like another model's name", () => {
    const slots = resolveModelSlots([
      slot(mock("gpt-4o-mini"), "a"),
      slot(mock("gpt-5"), "b", "gpt-4o-mini-fast"),
      slot(mock("claude"), "c", "gpt-4o-mini"),
    ]);
    expect(slots.map((s) => s.id)).toEqual([
      `gpt-4o-mini-${animalAt(hashedIndex("mock", "gpt-4o-mini", "a"))}`,
      "gpt-4o-mini-fast",
      "gpt-4o-mini",
    ]);
  });

  it("is deterministic: same result on repeated calls and for fresh but equal model objects", () => {
    const build = () => [slot(mock("gpt-5"), "a"), slot(mock("gpt-5"), "b"), slot(mock("gpt-5"), "c")];
    const declarations = build();
    const once = resolveModelSlots(declarations);
    expect(resolveModelSlots(declarations)).toEqual(once);
    expect(resolveModelSlots(build())).toEqual(once);
    const gateway = () => [slot("mock/gpt-5", "a"), slot("mock/gpt-5", "b"), slot("mock/gpt-5", "c")];
    expect(resolveModelSlots(gateway())).toEqual(once);
  });

  it("picks the suffix from the description, so different descriptions may get different animals", () => {
    const descriptions = Array.from({ length: 12 }, (_, i) => `description ${i}`);
    const animals = descriptions.map((d) => resolveModelSlots([slot(mock("gpt-5"), "first"), slot(mock("gpt-5"), d)])[1]?.id);
    for (const [i, d] of descriptions.entries()) expect(animals[i]).toBe(`gpt-5-${animalAt(hashedIndex("mock", "gpt-5", d))}`);
    expect(new Set(animals).size).toBeGreaterThan(1);
  });

  it("probes forward through SLOT_ANIMALS when the hashed animal is taken", () => {
    const start = hashedIndex("mock", "gpt-5", "b");
    const hashed = `gpt-5-${animalAt(start)}`;
    const next = `gpt-5-${animalAt(start + 1)}`;
    const afterNext = `gpt-5-${animalAt(start + 2)}`;
    expect(resolveModelSlots([slot(mock("gpt-5"), "a"), slot(mock("gpt-5"), "b")])[1]?.id).toBe(hashed);
    const oneTaken = resolveModelSlots([slot(mock("gpt-5"), "a"), slot(mock("other"), "x", hashed), slot(mock("gpt-5"), "b")]);
    expect(oneTaken.map((s) => s.id)).toEqual(["gpt-5", hashed, next]);
    const twoTaken = resolveModelSlots([
      slot(mock("gpt-5"), "a"),
      slot(mock("o1"), "x", hashed),
      slot(mock("o2"), "y", next),
      slot(mock("gpt-5"), "b"),
    ]);
    expect(twoTaken.map((s) => s.id)).toEqual(["gpt-5", hashed, next, afterNext]);
  });

  it("wraps around the end of the list while probing", () => {
    // Find a description whose hashed animal is the last one, then take that one.
    const description = Array.from({ length: 5000 }, (_, i) => `d${i}`).find(
      (d) => hashedIndex("mock", "m", d) === SLOT_ANIMALS.length - 1,
    );
    expect(description).toBeDefined();
    const slots = resolveModelSlots([slot(mock("m"), "first"), slot(mock("x"), "x", "m-drake"), slot(mock("m"), description as string)]);
    expect(slots[2]?.id).toBe("m-otter");
  });

  it("adds a round number once every animal is taken", () => {
    const explicit = SLOT_ANIMALS.map((a, i) => slot(mock(`reserved-${i}`), `r${i}`, `gpt-5-${a}`));
    const slots = resolveModelSlots([slot(mock("gpt-5"), "a"), ...explicit, slot(mock("gpt-5"), "b"), slot(mock("gpt-5"), "c")]);
    const startB = hashedIndex("mock", "gpt-5", "b");
    const startC = hashedIndex("mock", "gpt-5", "c");
    expect(slots[0]?.id).toBe("gpt-5");
    expect(slots.at(-2)?.id).toBe(`gpt-5-${animalAt(startB)}-2`);
    expect(slots.at(-1)?.id).toBe(`gpt-5-${animalAt(startC === startB ? startC + 1 : startC)}-2`);
    expect(new Set(slots.map((s) => s.id)).size).toBe(slots.length);
  });

  it("does not collide across different model names", () => {
    const slots = resolveModelSlots([slot(mock("gpt-5"), "a"), slot(mock("gpt-4o-mini"), "a"), slot(mock("claude-sonnet-4"), "a")]);
    expect(slots.map((s) => s.id)).toEqual(["gpt-5", "gpt-4o-mini", "claude-sonnet-4"]);
  });

  it("treats two providers of the same model name as a collision (slot ids are by model name)", () => {
    const slots = resolveModelSlots([slot(mock("gpt-5", "openai"), "a"), slot(mock("gpt-5", "azure"), "a")]);
    expect(slots[0]?.id).toBe("gpt-5");
    expect(slots[1]?.id).toBe(`gpt-5-${animalAt(hashedIndex("azure", "gpt-5", "a"))}`);
    expect(slots.map((s) => s.providerId)).toEqual(["openai", "azure"]);
  });
});

describe("resolveModelSlots: identities", () => {
  it("splits gateway strings: 'openai/gpt-5' gives providerId 'openai'", () => {
    const slots = resolveModelSlots([slot("openai/gpt-5", "gateway model")]);
    expect(slots).toEqual([{ id: "gpt-5", providerId: "openai", modelId: "gpt-5", description: "gateway model" }]);
  });

  it("sanitizes odd model ids with slotBaseName", () => {
    const slots = resolveModelSlots([slot(mock("Meta/Llama 3.1@2024"), "llama")]);
    expect(slots[0]?.id).toBe("meta-llama-3.1-2024");
    expect(slots[0]?.id).toBe(slotBaseName("Meta/Llama 3.1@2024"));
    expect(slots[0]?.modelId).toBe("Meta/Llama 3.1@2024");
  });

  it("records the mock model's provider and model id", () => {
    expect(resolveModelSlots([slot(mock("m-1"), "d")])).toEqual([{ id: "m-1", providerId: "mock", modelId: "m-1", description: "d" }]);
  });
});

describe("slotBaseName", () => {
  it.each([
    ["gpt-4o-mini", "gpt-4o-mini"],
    ["GPT-5", "gpt-5"],
    ["Meta/Llama 3.1@2024", "meta-llama-3.1-2024"],
    ["models/gemini-2.5-pro", "models-gemini-2.5-pro"],
    ["  spaced  name  ", "spaced-name"],
    ["--dashes--", "dashes"],
    ["claude_3.5_sonnet", "claude_3.5_sonnet"],
    ["@@@", "model"],
    ["", "model"],
    ["ünïcode-модель", "n-code"],
  ])("%j -> %j", (modelId, expected) => {
    expect(slotBaseName(modelId)).toBe(expected);
  });

  it("caps at 48 characters and never ends on a separator", () => {
    const long = `${"a".repeat(47)}-bbbbbbbb`;
    expect(slotBaseName(long)).toBe("a".repeat(47));
    expect(slotBaseName("x".repeat(100))).toBe("x".repeat(48));
  });

  it("always yields a valid slot id, also with an animal suffix", () => {
    for (const id of ["Meta/Llama 3.1@2024", "@@@", "a".repeat(200), "x.y_z-0", "-._"]) {
      const base = slotBaseName(id);
      expect(base).toMatch(SLOT_ID_PATTERN);
      for (const animal of SLOT_ANIMALS) expect(`${base}-${animal}-99`).toMatch(SLOT_ID_PATTERN);
    }
  });
});
