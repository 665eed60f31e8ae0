import type { TokenScope } from "../ports/token-store.ts";

/**
 * Who a request is: the operator's `LITTLE_ADMIN_TOKEN` (no tenant; it manages tokens and tenants' retention only), or a
 * tenant with the scopes its token grants. `tokenId` is null for `LITTLE_DEV_TOKEN`, which is not
 * stored and has every scope.
 */
export type Principal =
  | { readonly kind: "admin" }
  | {
      readonly kind: "tenant";
      readonly tenant: string;
      readonly scopes: readonly TokenScope[];
      readonly tokenId: string | null;
      readonly lastUsedAt: number | null;
    };
