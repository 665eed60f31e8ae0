import { LittleError } from "./little-error.ts";

/**
 * A change no memory store accepts: an invalid store id or file path, or a file over the size
 * limit. Thrown by `MemoryStore.save` before anything is written. Internal: a session's memory is
 * checked before it is saved, so one reaching a caller is a bug.
 */
export class MemoryStoreError extends LittleError {
  readonly code = "memory_change_invalid";
  constructor(message: string) {
    super(message);
    this.name = "MemoryStoreError";
  }
}
