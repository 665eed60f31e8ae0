/** A stored secret's name and when it was last set; its value never leaves {@link SecretStore.reveal}. */
export type SecretEntry = { readonly name: string; readonly updatedAt: number };

/**
 * Encrypted secrets per tenant (AES-GCM; the key is a Worker secret). Values go in through `put`
 * and out only through `reveal`, to the run that binds them; listing shows names only. Without a
 * key every write and reveal fails with `secrets_key_missing` (fail closed).
 */
export interface SecretStore {
  /** Whether a key is configured (runs that bind secrets refuse to start without one). */
  readonly keyConfigured: boolean;
  put(tenant: string, name: string, value: string, at: number): Promise<void>;
  delete(tenant: string, name: string): Promise<boolean>;
  list(tenant: string): Promise<SecretEntry[]>;
  /** Decrypts the named secrets; throws `secret_missing` naming every one that is not set. */
  reveal(tenant: string, names: readonly string[]): Promise<Record<string, string>>;
}
