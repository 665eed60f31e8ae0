import type { SecretEntry, SecretStore } from "../../ports/secret-store.ts";
import { SecretMissingError } from "../../sdk/errors/secret-missing-error.ts";
import { SecretsKeyMissingError } from "../../sdk/errors/secrets-key-missing-error.ts";
import { AesGcmCipher, type Sealed, sealContext } from "./aes-gcm-cipher.ts";

/** Where sealed rows live (D1, or memory): the store itself never sees plaintext at rest. */
export interface SealedRows {
  upsert(tenant: string, name: string, sealed: Sealed, at: number): Promise<void>;
  remove(tenant: string, name: string): Promise<boolean>;
  list(tenant: string): Promise<SecretEntry[]>;
  get(tenant: string, names: readonly string[]): Promise<Map<string, Sealed>>;
}

/** A {@link SecretStore} over sealed rows and a key from configuration (absent: fail closed). */
export class SealedSecretStore implements SecretStore {
  private readonly cipher: Promise<AesGcmCipher> | null;
  private readonly rows: SealedRows;

  constructor(rows: SealedRows, keyText: string | undefined) {
    this.rows = rows;
    this.cipher = keyText ? AesGcmCipher.fromBase64(keyText) : null;
    // An invalid key surfaces when the store is used, as a named error; never as an unhandled rejection.
    this.cipher?.catch(() => undefined);
  }

  get keyConfigured(): boolean {
    return this.cipher !== null;
  }

  private async key(): Promise<AesGcmCipher> {
    if (!this.cipher) throw new SecretsKeyMissingError();
    return this.cipher;
  }

  async put(tenant: string, name: string, value: string, at: number): Promise<void> {
    const sealed = await (await this.key()).seal(value, sealContext(tenant, name));
    await this.rows.upsert(tenant, name, sealed, at);
  }

  delete(tenant: string, name: string): Promise<boolean> {
    return this.rows.remove(tenant, name);
  }

  list(tenant: string): Promise<SecretEntry[]> {
    return this.rows.list(tenant);
  }

  async reveal(tenant: string, names: readonly string[]): Promise<Record<string, string>> {
    if (names.length === 0) return {};
    const cipher = await this.key();
    const sealed = await this.rows.get(tenant, names);
    const missing = names.filter((n) => !sealed.has(n));
    if (missing.length > 0) throw new SecretMissingError(missing);
    const values: Record<string, string> = {};
    for (const name of names) values[name] = await cipher.open(sealed.get(name) as Sealed, sealContext(tenant, name), name);
    return values;
  }
}
