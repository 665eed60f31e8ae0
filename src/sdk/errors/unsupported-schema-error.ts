import { LittleError } from "./little-error.ts";

/** A value that is not a schema this project understands, or one that has no JSON Schema form. */
export class UnsupportedSchemaError extends LittleError {
  readonly code = "schema_unsupported";
  readonly where: string;
  constructor(where: string, message: string) {
    super(`${where}: ${message}`);
    this.name = "UnsupportedSchemaError";
    this.where = where;
  }
}
