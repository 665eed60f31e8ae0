import { LittleError } from "./little-error.ts";

/**
 * A schema given as executable code (a validator function, a lazy schema, a refinement that
 * cannot be expressed as JSON Schema). LWIR locks data, never code, so it is refused.
 */
export class LiveValidatorRejectedError extends LittleError {
  readonly code = "schema_live_validator";
  readonly where: string;
  constructor(where: string, detail?: string) {
    super(
      `${where}: a live validator function cannot be locked into a workflow version; pass a zod schema, an AI SDK jsonSchema(), or a plain JSON Schema object${detail ? ` (${detail})` : ""}`,
    );
    this.name = "LiveValidatorRejectedError";
    this.where = where;
  }
}
