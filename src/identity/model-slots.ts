import { digestJson, digestPrefix } from "../json/digest.ts";
import type { ModelSlotDeclaration } from "../sdk/model.ts";
import { modelIdentity } from "../sdk/model.ts";

/**
 * The suffixes used to tell apart model slots whose names collide. Fixed forever: changing or
 * reordering it would change slot ids, and with them every definition hash.
 */
export const SLOT_ANIMALS = [
  "otter",
  "heron",
  "lynx",
  "badger",
  "falcon",
  "marten",
  "ibis",
  "puffin",
  "gecko",
  "tapir",
  "okapi",
  "walrus",
  "bison",
  "crane",
  "dingo",
  "egret",
  "ferret",
  "gibbon",
  "hyena",
  "impala",
  "jackal",
  "koala",
  "lemur",
  "magpie",
  "narwhal",
  "ocelot",
  "pelican",
  "quokka",
  "raven",
  "stoat",
  "toucan",
  "urchin",
  "vole",
  "wombat",
  "yak",
  "zebra",
  "alpaca",
  "beaver",
  "coyote",
  "dolphin",
  "eland",
  "fox",
  "gazelle",
  "hare",
  "iguana",
  "jaguar",
  "kestrel",
  "llama",
  "mole",
  "newt",
  "orca",
  "panda",
  "quail",
  "robin",
  "seal",
  "tern",
  "viper",
  "weasel",
  "wren",
  "zorilla",
  "auk",
  "bongo",
  "civet",
  "drake",
] as const;

/** A model slot with its resolved id. */
export type ResolvedModelSlot = {
  readonly id: string;
  readonly providerId: string;
  readonly modelId: string;
  readonly description: string;
};

/**
 * Resolves slot ids: explicit ids are reserved first; every other slot takes its model name
 * (`gpt-4o-mini`), and on a collision `<name>-<animal>` where the animal is picked by the hash of
 * (provider, model id, description) and probed forward through {@link SLOT_ANIMALS}. The result
 * depends only on the declarations, never on time or randomness.
 *
 * @example
 * resolveModelSlots([model(openai("gpt-5"), { description: "a" }), model(openai("gpt-5"), { description: "b" })])
 * // ids: "gpt-5", "gpt-5-<animal>"
 */
export function resolveModelSlots(declarations: readonly ModelSlotDeclaration[]): ResolvedModelSlot[] {
  const taken = new Set<string>();
  for (const d of declarations) if (d.id !== undefined) taken.add(d.id);
  return declarations.map((d) => {
    const { providerId, modelId } = modelIdentity(d.model);
    const id = d.id ?? claimDerivedId(taken, providerId, modelId, d.description);
    return { id, providerId, modelId, description: d.description };
  });
}

function claimDerivedId(taken: Set<string>, providerId: string, modelId: string, description: string): string {
  const base = slotBaseName(modelId);
  if (!taken.has(base)) {
    taken.add(base);
    return base;
  }
  const start = Number.parseInt(digestPrefix(digestJson({ providerId, modelId, description }), 8), 16) % SLOT_ANIMALS.length;
  for (let round = 1; ; round++) {
    for (let i = 0; i < SLOT_ANIMALS.length; i++) {
      const animal = SLOT_ANIMALS[(start + i) % SLOT_ANIMALS.length] as string;
      const candidate = round === 1 ? `${base}-${animal}` : `${base}-${animal}-${round}`;
      if (!taken.has(candidate)) {
        taken.add(candidate);
        return candidate;
      }
    }
  }
}

/** A model id made into a slot name: lowercase, unsafe characters to `-`, at most 48 characters. */
export function slotBaseName(modelId: string): string {
  const cleaned = modelId
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "")
    .slice(0, 48)
    .replace(/[^a-z0-9]+$/g, "");
  return cleaned === "" ? "model" : cleaned;
}
