import { describe, expect, it } from "vitest";
import type { Digest } from "../../src/json/digest.ts";
import type { DefinitionApprovals } from "../../src/ports/definition-approvals.ts";

/** Makes the store under test; stores may share data, so every test uses its own tenant. */
export type MakeDefinitionApprovals = () => DefinitionApprovals;

const nonce = () => crypto.randomUUID().replaceAll("-", "");
const digest = (): Digest => `sha256:${nonce()}${nonce()}`;

/** The {@link DefinitionApprovals} contract, run against every adapter. */
export function definitionApprovalsContract(name: string, make: MakeDefinitionApprovals): void {
  describe(`DefinitionApprovals contract: ${name}`, () => {
    it("approves once: a second approval keeps the first time and no pin", async () => {
      const store = make();
      const tenant = `t_${nonce()}`;
      const hash = digest();
      const first = await store.approve({ tenant, definitionHash: hash, workflowId: "wf.a", at: 100 });
      expect(first).toEqual({
        tenant,
        definitionHash: hash,
        workflowId: "wf.a",
        approvedAt: 100,
        pinnedVersionId: null,
        pinnedVersionHash: null,
        pinnedAt: null,
      });
      const again = await store.approve({ tenant, definitionHash: hash, workflowId: "wf.a", at: 200 });
      expect(again.approvedAt).toBe(100);
      expect(await store.get(tenant, hash)).toEqual(first);
    });

    it("is per tenant: another tenant's approval is not this tenant's", async () => {
      const store = make();
      const hash = digest();
      await store.approve({ tenant: `a_${nonce()}`, definitionHash: hash, workflowId: "wf.a", at: 1 });
      expect(await store.get(`b_${nonce()}`, hash)).toBeNull();
    });

    it("pins and unpins only an approved hash", async () => {
      const store = make();
      const tenant = `t_${nonce()}`;
      const hash = digest();
      const version = { id: "wfver_0123456789abcdef", hash: `sha256:0123456789abcdef${"0".repeat(48)}` as Digest };
      expect(await store.pin(tenant, hash, version, 5)).toBe(false);
      expect(await store.get(tenant, hash)).toBeNull();
      await store.approve({ tenant, definitionHash: hash, workflowId: "wf.a", at: 1 });
      expect(await store.pin(tenant, hash, version, 5)).toBe(true);
      expect(await store.get(tenant, hash)).toMatchObject({ pinnedVersionId: version.id, pinnedVersionHash: version.hash, pinnedAt: 5 });
      expect(await store.pin(tenant, hash, null, 9)).toBe(true);
      expect(await store.get(tenant, hash)).toMatchObject({ pinnedVersionId: null, pinnedVersionHash: null, pinnedAt: null });
    });

    it("lists a workflow's approvals newest first", async () => {
      const store = make();
      const tenant = `t_${nonce()}`;
      const [h1, h2, h3] = [digest(), digest(), digest()];
      await store.approve({ tenant, definitionHash: h1, workflowId: "wf.a", at: 1 });
      await store.approve({ tenant, definitionHash: h2, workflowId: "wf.a", at: 3 });
      await store.approve({ tenant, definitionHash: h3, workflowId: "wf.b", at: 2 });
      expect((await store.ofWorkflow(tenant, "wf.a")).map((a) => a.definitionHash)).toEqual([h2, h1]);
      expect(await store.ofWorkflow(tenant, "wf.none")).toEqual([]);
    });

    it("revokes an approval with its pin, once; approvals and revocations that changed something are audited", async () => {
      const store = make();
      const tenant = `t_${nonce()}`;
      const hash = digest();
      expect(await store.revoke({ tenant, definitionHash: hash, at: 1, by: "tok_x" })).toBeNull();
      await store.approve({ tenant, definitionHash: hash, workflowId: "wf.a", at: 10, by: "tok_a" });
      await store.approve({ tenant, definitionHash: hash, workflowId: "wf.a", at: 11, by: "tok_b" });
      const version = { id: "wfver_0123456789abcdef", hash: `sha256:0123456789abcdef${"0".repeat(48)}` as Digest };
      await store.pin(tenant, hash, version, 12);
      const revoked = await store.revoke({ tenant, definitionHash: hash, at: 20, by: "tok_c" });
      expect(revoked).toMatchObject({ approvedAt: 10, pinnedVersionHash: version.hash });
      expect(await store.get(tenant, hash)).toBeNull();
      expect(await store.revoke({ tenant, definitionHash: hash, at: 21, by: "tok_d" })).toBeNull();
      expect(await store.pin(tenant, hash, version, 22)).toBe(false);
      // Approved again after a revocation: a new approval, with no pin.
      expect(await store.approve({ tenant, definitionHash: hash, workflowId: "wf.a", at: 30 })).toMatchObject({
        approvedAt: 30,
        pinnedAt: null,
      });
      expect(await store.audit(tenant, hash)).toEqual([
        { action: "approved", workflowId: "wf.a", at: 10, by: "tok_a" },
        { action: "revoked", workflowId: "wf.a", at: 20, by: "tok_c" },
        { action: "approved", workflowId: "wf.a", at: 30, by: null },
      ]);
      expect(await store.audit(`o_${nonce()}`, hash)).toEqual([]);
    });
  });
}
