import { describe, expect, it } from "vitest";
import { JustBashSandbox } from "../../../src/adapters/sandbox-isolate/just-bash-sandbox.ts";

describe("JustBashSandbox (bash for harness sessions, in workerd)", () => {
  it("starts in /mnt/scratch/own, keeps files across calls, pipes work", async () => {
    const session = await new JustBashSandbox().openSession({ sessionId: "s1", skills: [] });
    expect((await session.exec("pwd")).stdout.trim()).toBe("/mnt/scratch/own");
    expect((await session.exec("mkdir -p drafts && echo '{\"a\":1}' > drafts/x.json")).exitCode).toBe(0);
    const r = await session.exec("cat drafts/x.json | jq .a && seq 3 | awk '{s+=$1} END {print s}'");
    expect(r).toEqual({ exitCode: 0, stdout: "1\n6\n", stderr: "" });
    expect(await session.snapshotScratch()).toEqual({ "drafts/x.json": '{"a":1}\n' });
  });

  it("mounts skills under .agents/skills and restores scratch into a new session", async () => {
    const sandbox = new JustBashSandbox();
    const session = await sandbox.openSession({
      sessionId: "s2",
      skills: [{ name: "triage", description: "How we grade severity", body: "Grade high when money is lost." }],
      scratch: { "notes/plan.md": "step one\n" },
    });
    expect((await session.exec("cat .agents/skills/triage/SKILL.md")).stdout).toContain("Grade high when money is lost.");
    expect((await session.exec("cat notes/plan.md")).stdout).toBe("step one\n");
    expect((await session.exec("ls /mnt/memory")).stdout.split(/\s+/).filter(Boolean).sort()).toEqual(["org", "workflow"]);
  });

  it("reports a failing command's exit code and stderr", async () => {
    const session = await new JustBashSandbox().openSession({ sessionId: "s3", skills: [] });
    const r = await session.exec("cat missing.txt");
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/missing\.txt/);
  });
});
