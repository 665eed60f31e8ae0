import { execFileSync } from "node:child_process";

/** Whether a Docker engine answers here (`docker info`), for scenarios on real containers. */
export function dockerAnswers(): boolean {
  try {
    execFileSync("docker", ["info", "--format", "{{.ServerVersion}}"], { stdio: "ignore", timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}
