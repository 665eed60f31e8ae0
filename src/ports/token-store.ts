/**
 * API tokens by their digest (the token itself is never stored). Each belongs to one tenant.
 */
export interface TokenStore {
  put(tokenHash: string, tenant: string, label: string | null, at: number): Promise<void>;
  tenantOf(tokenHash: string): Promise<string | null>;
}
