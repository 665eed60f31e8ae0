/** What a token may do. `admin` implies every other scope (see scopesAllow in src/api/token-scopes.ts). */
export const TOKEN_SCOPES = ["runs:read", "runs:write", "runs:delete", "approve", "admin"] as const;

/** One scope of {@link TOKEN_SCOPES}. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** True when the string is one of {@link TOKEN_SCOPES}. */
export function isTokenScope(value: string): value is TokenScope {
  return (TOKEN_SCOPES as readonly string[]).includes(value);
}

/** A stored API token, never its secret: only the secret's digest identifies it. */
export type TokenRecord = {
  /** Public, stable id (`tok_` + 16 hex of the digest): what lists show and revocation names. */
  readonly id: string;
  readonly tokenHash: string;
  readonly tenant: string;
  readonly label: string | null;
  readonly scopes: readonly TokenScope[];
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms; null = never expires. */
  readonly expiresAt: number | null;
  /** Epoch ms; null = live. Revoked rows are kept so the 401 can say "revoked". */
  readonly revokedAt: number | null;
  /** Epoch ms, to the minute (see touch); null = never used. */
  readonly lastUsedAt: number | null;
};

/** The fields a new token is stored with. */
export type NewToken = Omit<TokenRecord, "revokedAt" | "lastUsedAt">;

/**
 * API tokens by their digest (the token itself is never stored). Each belongs to one tenant.
 */
export interface TokenStore {
  put(token: NewToken): Promise<void>;
  /** The token with this digest, revoked and expired ones included (the caller tells them apart). */
  byHash(tokenHash: string): Promise<TokenRecord | null>;
  /** The tenant's tokens that are not revoked, newest first. */
  list(tenant: string): Promise<TokenRecord[]>;
  /** Marks a live token revoked (only the tenant's when `tenant` is given); null when there is no such live token. */
  revoke(tenant: string | null, id: string, at: number): Promise<TokenRecord | null>;
  /** Records a use (best effort; callers throttle it). */
  touch(id: string, at: number): Promise<void>;
}
