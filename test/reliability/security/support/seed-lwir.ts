import seedLwir from "../../../fixtures/lwir/seed-summarize-ticket.json";
import { api } from "./api-call.ts";

/**
 * The seed's LWIR carrying the schemas the registered workflow has now (the fixture's copy can lag
 * behind the example, e.g. `additionalProperties`), so it binds.
 */
export async function liveSeed() {
  const catalog = await api("GET", "/v1/workflows");
  const seed = (catalog.json.workflows as { id: string; inputSchema: unknown; requestedOutput: { schema: unknown } }[]).find(
    (w) => w.id === "support.summarize-ticket",
  );
  if (!seed) throw new Error("support.summarize-ticket is not registered");
  const lwir = {
    ...seedLwir,
    input: { schema: seed.inputSchema },
    output: { schema: seed.requestedOutput.schema },
    steps: seedLwir.steps.map((step) => ({ ...step, output: { ...step.output, schema: seed.requestedOutput.schema } })),
  };
  return { lwir, inputSchema: seed.inputSchema, requestedOutput: seed.requestedOutput };
}
