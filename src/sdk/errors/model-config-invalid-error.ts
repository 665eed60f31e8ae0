import { LittleError } from "./little-error.ts";

/**
 * A `LITTLE_MODEL_<SLOT>` override that cannot be used: not `provider:model`, or a provider the
 * Worker does not know. A configuration error of the deployment, reported as a 4xx (never a 500)
 * wherever the definition is snapshotted, so no run starts on a half-read configuration.
 */
export class ModelConfigInvalidError extends LittleError {
  readonly code = "model_config_invalid";
  /** The Worker var at fault, e.g. `LITTLE_MODEL_GPT_5`. */
  readonly variable: string;
  constructor(variable: string, reason: string) {
    super(`${variable} is invalid: ${reason}`);
    this.name = "ModelConfigInvalidError";
    this.variable = variable;
  }
}
