import type { Digest } from "../../json/digest.ts";
import { LEGACY_SCHEMA_NORMALIZER, type SchemaNormalizerId } from "../../schema/normalize-schema.ts";
import { definitionCapabilities } from "../definition-capabilities.ts";
import type { RegisteredWorkflow } from "../run-environment.ts";
import { readRunState } from "../run-state.ts";
import type { RunHostPorts } from "./host-ports.ts";
import { latestRegistration } from "./index-run.ts";

/**
 * Why a section may not take a trigger, or null: its body was locked against a definition this
 * Worker no longer runs (a redeploy changed the hash, computed with the normalizer the run started
 * with, as its drive does). Queued, such an occurrence would fail the whole section with
 * `capability_drift` and be lost; refused, the caller can supersede the section first
 * (`POST /v1/runs/:runId/supersede`). Call it before reading the state the append depends on: it
 * awaits, and other calls may interleave.
 */
export async function staleSection(ports: RunHostPorts): Promise<string | null> {
  const state = (await readRunState(ports.log)).state;
  const locked = latestRegistration(state).definitionHash;
  const request = state.request;
  if (!locked || !request || state.terminal) return null;
  const workflow = ports.workflows.get(request.workflowId);
  // No workflow, or a definition that no longer snapshots: the drive fails the run with its own cause.
  if (!workflow) return null;
  const hash = await liveHash(workflow, request.schemaNormalizer ?? LEGACY_SCHEMA_NORMALIZER);
  if (hash === null || hash === locked) return null;
  return `The section locked its body against definition ${locked}; this Worker now runs ${hash}. Supersede it with a section started under the new definition (POST /v1/runs/${ports.runId}/supersede)`;
}

/** The hash a workflow's live definition has under a schema normalizer (null: it does not snapshot). */
export function liveHash(workflow: RegisteredWorkflow, normalizer: SchemaNormalizerId): Promise<Digest | null> {
  return definitionCapabilities(workflow, normalizer).then(
    (caps) => caps.definitionHash,
    () => null,
  );
}
