import type { Digest } from "../../json/digest.ts";
import type { DefinitionApproval, DefinitionApprovals } from "../../ports/definition-approvals.ts";

/**
 * The start path's reads of a tenant's approval of a definition, kept for {@link APPROVAL_READ_TTL_MS}
 * so a start's ack does not wait for D1 (one primary region) on every start: the first start of a
 * definition in an isolate reads, the next ones within the window do not.
 *
 * Why a stale read is safe: the run object re-reads the approval before the run's first step, and
 * at every slice (`approvalRevoked`), and fails a run whose approval was revoked closed
 * (`definition_approval_revoked`), so a revoked approval is never honoured by any work after its
 * revoke answered. What a stale read can cost: for up to the window, a pin or an unpin made in
 * another isolate is not yet seen, and a start acknowledged on a revoked approval fails before
 * it does anything instead of being refused. An absent approval of a definition that requires one
 * is never kept (the refusal reads again, so an approval is honoured at once), and every write
 * through this isolate's API (approve, pin, unpin, revoke) forgets the entry it changed.
 *
 * Keyed by the approvals port: one per wiring (per isolate in production, per test environment).
 */
export const APPROVAL_READ_TTL_MS = 30_000;

type Kept = { readonly approval: DefinitionApproval | null; readonly readAt: number };
/** A port's kept reads, and how many forgets it has seen (a read that a forget overtook is not kept). */
type Reads = { readonly entries: Map<string, Kept>; forgets: number };

const kept = new WeakMap<DefinitionApprovals, Reads>();
/** Entries per port at most: a tenant-heavy isolate drops its oldest reads first. */
const MAX_ENTRIES = 1_000;

const keyOf = (tenant: string, hash: Digest) => `${tenant}\u0000${hash}`;

/**
 * The tenant's approval of `hash`, from a read at most {@link APPROVAL_READ_TTL_MS} old.
 * `keepAbsent: false` (a definition that requires approval): an absent approval is read again each time.
 */
export async function readApproval(
  approvals: DefinitionApprovals,
  tenant: string,
  hash: Digest,
  now: number,
  options: { readonly keepAbsent: boolean },
): Promise<DefinitionApproval | null> {
  let reads = kept.get(approvals);
  if (!reads) {
    reads = { entries: new Map(), forgets: 0 };
    kept.set(approvals, reads);
  }
  const { entries } = reads;
  const key = keyOf(tenant, hash);
  const hit = entries.get(key);
  if (hit && now - hit.readAt < APPROVAL_READ_TTL_MS && now >= hit.readAt && (hit.approval || options.keepAbsent)) return hit.approval;
  const forgetsBefore = reads.forgets;
  const approval = await approvals.get(tenant, hash);
  // A write landed while this read was out: what it read may be from before the write.
  if (reads.forgets !== forgetsBefore) return approval;
  entries.delete(key);
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  entries.set(key, { approval, readAt: now });
  return approval;
}

/** Forgets the kept read of one approval: every approve, pin, unpin and revoke through this isolate calls it. */
export function forgetApproval(approvals: DefinitionApprovals, tenant: string, hash: Digest): void {
  const reads = kept.get(approvals);
  if (!reads) return;
  reads.forgets++;
  reads.entries.delete(keyOf(tenant, hash));
}
