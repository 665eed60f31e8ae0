import { LittleError } from "./little-error.ts";

/** A model slot whose provider has no key configured (and offline models are not allowed). */
export class ModelUnavailableError extends LittleError {
  readonly code = "model_unavailable";
  readonly providerId: string;
  readonly modelId: string;
  /** The secrets (or `AI`, the Workers AI binding) the provider needs and does not have. */
  readonly missing: readonly string[];
  constructor(providerId: string, modelId: string, hint: string, missing: readonly string[] = []) {
    super(`Model ${providerId}/${modelId} is unavailable: ${hint}`);
    this.name = "ModelUnavailableError";
    this.providerId = providerId;
    this.modelId = modelId;
    this.missing = missing;
  }
}
