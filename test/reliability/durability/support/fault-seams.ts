import type { WorkflowCatalog } from "../../../../src/engine/run-environment.ts";
import type { ModelResolver } from "../../../../src/ports/model-resolver.ts";

/** A fault injected by a test: not a named product error, so the drive loop treats it as a bug and retries. */
export class InjectedFault extends Error {
  constructor(where: string, n: number) {
    super(`injected fault #${n} in ${where}`);
    this.name = "InjectedFault";
  }
}

/** Counts uses of a seam and fails uses `from` … `from + count - 1` (1-based). */
export class FaultWindow {
  uses = 0;
  injected = 0;
  readonly from: number;
  readonly count: number;
  readonly where: string;

  constructor(where: string, from: number, count: number) {
    this.where = where;
    this.from = from;
    this.count = count;
  }

  /** Throws {@link InjectedFault} when this use falls in the window. */
  use(): void {
    this.uses += 1;
    if (this.uses >= this.from && this.uses < this.from + this.count) {
      this.injected += 1;
      throw new InjectedFault(this.where, this.injected);
    }
  }
}

/** A model resolver whose uses in `window` throw (a provider SDK that fails to initialise, say). */
export function faultyResolver(inner: ModelResolver, window: FaultWindow): ModelResolver {
  return {
    resolve: (request) => {
      window.use();
      return inner.resolve(request);
    },
  };
}

/** A workflow catalog whose lookups in `window` throw (the first thing every drive slice does). */
export function faultyCatalog(inner: WorkflowCatalog, window: FaultWindow): WorkflowCatalog {
  return {
    get: (id) => {
      window.use();
      return inner.get(id);
    },
    ids: () => inner.ids(),
  };
}
