import { type RetentionReport, sweepRetention } from "../engine/deletion/retention-sweep.ts";
import { wire } from "../wiring.ts";

/**
 * Retention on a cron tick (docs/runs.md, "Retention and deletion"): deletes ended runs older than
 * each tenant's retention and logs one JSON line (`little.retention`) with the counts. A failure
 * of the sweep itself is logged, never thrown: the tick's scheduled starts must not fail with it.
 */
export async function runRetention(env: Env): Promise<RetentionReport | null> {
  const services = wire(env);
  try {
    const report = await sweepRetention(services, { defaultDays: services.retentionDays });
    console.log(JSON.stringify({ kind: "little.retention", defaultDays: services.retentionDays, ...report }));
    return report;
  } catch (error) {
    console.error(
      JSON.stringify({ kind: "little.retention", outcome: "failed", message: error instanceof Error ? error.message : String(error) }),
    );
    return null;
  }
}
