import { describe, expect, it } from "vitest";
import type { SealedRows } from "../../src/adapters/secrets/sealed-secret-store.ts";
import { SealedSecretStore } from "../../src/adapters/secrets/sealed-secret-store.ts";

/** A base64 32-byte key. */
export const KEY_A = btoa("A".repeat(32));
const KEY_B = btoa("B".repeat(32));

const tenant = () => `t_${crypto.randomUUID().slice(0, 8)}`;

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

/** The SecretStore contract over every sealed-rows adapter; `rows` must be fresh or shared safely. */
export function secretStoreContract(name: string, makeRows: () => SealedRows): void {
  describe(`SecretStore contract: ${name}`, () => {
    it("stores values encrypted and reveals them to the same tenant; lists names only", async () => {
      const rows = makeRows();
      const store = new SealedSecretStore(rows, KEY_A);
      const t = tenant();
      await store.put(t, "CRM_TOKEN", "sk-live-canary-123", 10);
      await store.put(t, "OTHER", "second value", 11);
      expect(await store.reveal(t, ["CRM_TOKEN", "OTHER"])).toEqual({ CRM_TOKEN: "sk-live-canary-123", OTHER: "second value" });
      expect(await store.list(t)).toEqual([
        { name: "CRM_TOKEN", updatedAt: 10 },
        { name: "OTHER", updatedAt: 11 },
      ]);
      const sealed = (await rows.get(t, ["CRM_TOKEN"])).get("CRM_TOKEN");
      expect(JSON.stringify(sealed)).not.toContain("canary");
      await store.put(t, "CRM_TOKEN", "rotated-value", 12);
      expect(await store.reveal(t, ["CRM_TOKEN"])).toEqual({ CRM_TOKEN: "rotated-value" });
    });

    it("names every missing secret, and is per tenant", async () => {
      const store = new SealedSecretStore(makeRows(), KEY_A);
      const a = tenant();
      await store.put(a, "ONE", "value-one", 1);
      expect(await codeOf(store.reveal(tenant(), ["ONE"]))).toBe("secret_missing");
      await expect(store.reveal(a, ["ONE", "TWO", "THREE"])).rejects.toMatchObject({ names: ["TWO", "THREE"] });
      expect(await store.delete(a, "ONE")).toBe(true);
      expect(await store.delete(a, "ONE")).toBe(false);
    });

    it("fails closed without a key, with an invalid key, and with another key", async () => {
      const rows = makeRows();
      const t = tenant();
      const none = new SealedSecretStore(rows, undefined);
      expect(none.keyConfigured).toBe(false);
      expect(await codeOf(none.put(t, "X_KEY", "value-x", 1))).toBe("secrets_key_missing");
      expect(await codeOf(none.reveal(t, ["X_KEY"]))).toBe("secrets_key_missing");
      expect(await codeOf(new SealedSecretStore(rows, "not-a-key").put(t, "X_KEY", "v", 1))).toBe("secrets_key_invalid");
      await new SealedSecretStore(rows, KEY_A).put(t, "X_KEY", "value-x", 1);
      expect(await codeOf(new SealedSecretStore(rows, KEY_B).reveal(t, ["X_KEY"]))).toBe("secret_undecryptable");
    });

    it("binds each ciphertext to its tenant and name: a row copied elsewhere does not decrypt", async () => {
      const rows = makeRows();
      const store = new SealedSecretStore(rows, KEY_A);
      const [a, b] = [tenant(), tenant()];
      await store.put(a, "TOKEN_A", "value-of-a", 1);
      const sealed = (await rows.get(a, ["TOKEN_A"])).get("TOKEN_A");
      if (!sealed) throw new Error("row missing");
      await rows.upsert(b, "TOKEN_A", sealed, 2);
      await rows.upsert(a, "TOKEN_B", sealed, 2);
      expect(await codeOf(store.reveal(b, ["TOKEN_A"]))).toBe("secret_undecryptable");
      expect(await codeOf(store.reveal(a, ["TOKEN_B"]))).toBe("secret_undecryptable");
    });
  });
}
