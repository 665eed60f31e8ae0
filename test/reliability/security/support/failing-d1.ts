/** Thrown by {@link failingD1} in place of the statement it was told to fail. */
export class InjectedD1Failure extends Error {
  constructor(n: number) {
    super(`injected D1 failure on statement ${n}`);
    this.name = "InjectedD1Failure";
  }
}

const EXECUTE = new Set(["run", "all", "first", "raw"]);

/**
 * A D1Database that forwards to `real` and throws on the `failAt`-th statement executed (1-based;
 * a batch counts as one statement and fails whole, as D1 batches do). `counter.executed` counts
 * what reached the database.
 */
export function failingD1(real: D1Database, failAt: number, counter = { executed: 0, attempted: 0 }): D1Database {
  const gate = () => {
    counter.attempted++;
    if (counter.attempted === failAt) throw new InjectedD1Failure(failAt);
    counter.executed++;
  };
  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args));
        if (typeof prop === "string" && EXECUTE.has(prop))
          return async (...args: unknown[]) => {
            gate();
            return value.apply(target, args);
          };
        return value.bind(target);
      },
    });
  return new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      if (prop === "prepare") return (query: string) => wrapStatement(value.call(target, query));
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          gate();
          return value.call(target, statements);
        };
      return value.bind(target);
    },
  });
}
