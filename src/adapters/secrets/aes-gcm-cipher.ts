import { digestPrefix, digestText } from "../../json/digest.ts";
import { SecretUndecryptableError } from "../../sdk/errors/secret-undecryptable-error.ts";
import { SecretsKeyInvalidError } from "../../sdk/errors/secrets-key-invalid-error.ts";

/** One encrypted value: base64 ciphertext (with the GCM tag) and base64 IV. */
export type Sealed = { readonly ciphertext: string; readonly iv: string; readonly keyId: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * AES-256-GCM with a random 96-bit IV per value and `tenant\0name` as additional data, so a
 * ciphertext copied to another tenant's or name's row does not decrypt. WebCrypto only: runs in
 * workerd and Node alike.
 */
export class AesGcmCipher {
  private readonly key: CryptoKey;
  /** A digest prefix of the key: which key sealed a value, never the key itself. */
  readonly keyId: string;

  private constructor(key: CryptoKey, keyId: string) {
    this.key = key;
    this.keyId = keyId;
  }

  /** Imports a base64 32-byte key; throws `secrets_key_invalid` for anything else. */
  static async fromBase64(keyText: string): Promise<AesGcmCipher> {
    let raw: Uint8Array<ArrayBuffer>;
    try {
      raw = Uint8Array.from(atob(keyText.trim()), (c) => c.charCodeAt(0));
    } catch {
      throw new SecretsKeyInvalidError();
    }
    if (raw.length !== 32) throw new SecretsKeyInvalidError();
    const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    return new AesGcmCipher(key, digestPrefix(digestText(`little-secrets-key:${keyText.trim()}`), 12));
  }

  async seal(plaintext: string, context: string): Promise<Sealed> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
      this.key,
      encoder.encode(plaintext),
    );
    return { ciphertext: toBase64(new Uint8Array(sealed)), iv: toBase64(iv), keyId: this.keyId };
  }

  async open(sealed: Sealed, context: string, name: string): Promise<string> {
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: fromBase64(sealed.iv), additionalData: encoder.encode(context) },
        this.key,
        fromBase64(sealed.ciphertext),
      );
      return decoder.decode(plain);
    } catch {
      throw new SecretUndecryptableError(name);
    }
  }
}

/** The additional data binding a value to its row. */
export function sealContext(tenant: string, name: string): string {
  return `${tenant}\u0000${name}`;
}

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
