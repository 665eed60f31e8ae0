import { describe, expect, it } from "vitest";
import { cronKey, cronProblem } from "../../src/sdk/cron.ts";

describe("cronProblem: Cloudflare's cron dialect", () => {
  it.each([
    "* * * * *",
    "*/30 * * * *",
    "45 * * * *",
    "0 17 * * sun",
    "0 17 * * 1",
    "10 7 * * mon-fri",
    "10 7 * * 2-6",
    "0 15 1 * *",
    "0 18 * * 6L",
    "0 18 * * friL",
    "59 23 LW * *",
    "0 9 L * *",
    "0 9 15W * *",
    "0 10 * * MON#2",
    "0 10 * * 2#5",
    "*/10 9-17 * * MON-FRI",
    "0 0 1 JAN,JUL *",
    "0 0 1 jul-aug *",
    "0 12 * * WED",
    "5/15 0-23/2 1-31/3 1-12/6 *",
    "  0   8  * *   MON-FRI ",
  ])("accepts %j", (expression) => {
    expect(cronProblem(expression)).toBeNull();
  });

  it.each([
    ["", "non-empty"],
    ["* * * *", "5 fields"],
    ["* * * * * *", "5 fields"],
    ["60 * * * *", 'minute: "60" is out of range 0-59'],
    ["0 24 * * *", 'hour: "24" is out of range 0-23'],
    ["0 0 0 * *", 'day of month: "0" is out of range 1-31'],
    ["0 0 32 * *", "day of month"],
    ["0 0 * 13 *", "month"],
    ["0 0 * * 0", 'day of week: "0" is out of range 1-7 or SUN-SAT'],
    ["0 0 * * 8", "day of week"],
    ["0 0 * * FUNDAY", "day of week"],
    ["*/0 * * * *", "step"],
    ["*/61 * * * *", "step"],
    ["1/2/3 * * * *", 'more than one "/"'],
    ["30-10 * * * *", "runs backwards"],
    ["1,,2 * * * *", "empty list item"],
    ["L * * * *", "L, W and # belong"],
    ["0 0 * * MON#6", "1 to 5"],
    ["0 0 32W * *", "day of month"],
    ["0 0 ? * MON", "day of month"],
    ["@daily * * * *", "minute"],
    ["a b c d e", "minute"],
  ])("refuses %j (%s)", (expression, problem) => {
    expect(cronProblem(expression)).toContain(problem);
  });

  it("refuses what is not a string", () => {
    expect(cronProblem(5)).toContain("non-empty string");
    expect(cronProblem(undefined)).toContain("non-empty string");
  });

  it("cronKey: one form for spacing and case, so a tick matches however the schedule was written", () => {
    expect(cronKey("  0 8  * *\tmon-fri ")).toBe("0 8 * * MON-FRI");
    expect(cronKey("0 8 * * MON-FRI")).toBe(cronKey("0 8 * * mon-fri"));
  });
});
