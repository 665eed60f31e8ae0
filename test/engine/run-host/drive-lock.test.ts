import { describe, expect, it } from "vitest";
import { DriveLock } from "../../../src/engine/run-host/drive-lock.ts";

describe("DriveLock: one driver of a run at a time", () => {
  it("is free until held, runs holders one after another, and is free again after the last", async () => {
    const lock = new DriveLock();
    expect(lock.free).toBe(true);
    const order: string[] = [];
    let releaseFirst = () => {};
    const first = lock.hold(
      () =>
        new Promise<void>((done) => {
          order.push("first starts");
          releaseFirst = () => {
            order.push("first ends");
            done();
          };
        }),
    );
    expect(lock.free).toBe(false);
    const second = lock.hold(async () => {
      order.push("second runs");
      return 2;
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(["first starts"]);
    releaseFirst();
    expect(await second).toBe(2);
    await first;
    expect(order).toEqual(["first starts", "first ends", "second runs"]);
    expect(lock.free).toBe(true);
  });

  it("a holder that throws releases the lock for the next", async () => {
    const lock = new DriveLock();
    const failed = lock.hold(async () => {
      throw new Error("slice failed");
    });
    const next = lock.hold(async () => "next");
    await expect(failed).rejects.toThrow("slice failed");
    expect(await next).toBe("next");
    expect(lock.free).toBe(true);
  });
});
