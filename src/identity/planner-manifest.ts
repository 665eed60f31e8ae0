import { type Digest, digestJson } from "../json/digest.ts";
import type { WorkflowDefinitionSnapshot } from "./definition-snapshot.ts";

/**
 * What a planner session was started with (compile stage 4, docs/architecture.md). Its hash is stored in
 * `harness.session.started`; a resumed run whose recomputed hash differs fails closed with
 * `capability_drift` instead of replaying a session compiled against other capabilities.
 */
export type PlannerManifest = {
  readonly harnessId: string;
  readonly plannerModelSlotId: string;
  readonly systemPromptHash: Digest;
  readonly skillsHash: Digest;
  readonly workflowDefinitionHash: Digest;
  readonly globalToolsHash: Digest;
  readonly memoryStoreIds: readonly string[];
  /** Present for re-plans after `supervise`: the digest of the prior cycles. */
  readonly outerLoopContextHash?: Digest;
};

/**
 * Builds the planner manifest for a snapshot.
 *
 * @example
 * const manifest = plannerManifest(caps.snapshot, caps.definitionHash);
 * const hash = manifestHash(manifest);
 */
export function plannerManifest(
  snapshot: WorkflowDefinitionSnapshot,
  definitionHash: Digest,
  outerLoopContextHash?: Digest,
): PlannerManifest {
  return {
    harnessId: snapshot.plannerConfig.harnessId,
    plannerModelSlotId: snapshot.plannerConfig.modelSlotId,
    systemPromptHash: snapshot.plannerConfig.systemHash,
    skillsHash: snapshot.plannerConfig.skillsHash,
    workflowDefinitionHash: definitionHash,
    globalToolsHash: toolsHash(snapshot),
    memoryStoreIds: memoryStoreIds(snapshot),
    ...(outerLoopContextHash ? { outerLoopContextHash } : {}),
  };
}

/** `sha256(canonicalJson(manifest))`. */
export function manifestHash(manifest: PlannerManifest): Digest {
  return digestJson(manifest);
}

/** Digest of the tool set: ids with their descriptor hashes. */
export function toolsHash(snapshot: WorkflowDefinitionSnapshot): Digest {
  return digestJson(snapshot.tools.map((t) => ({ id: t.id, descriptorHash: t.descriptorHash })));
}

/** The memory stores a run mounts, by stable id. */
export function memoryStoreIds(snapshot: WorkflowDefinitionSnapshot): string[] {
  const ids: string[] = [];
  if (snapshot.memoryConfig.workflow !== "none") ids.push(`workflow:${snapshot.id}`);
  if (snapshot.memoryConfig.org !== "none") ids.push("org");
  for (const store of snapshot.memoryConfig.attached) ids.push(`attached:${store.id}`);
  return ids;
}
