import { toolWithEnv } from "little-workflow";
import { z } from "zod";

const tool = toolWithEnv<Env>();

/**
 * A tool the workflow may call from a `tool.call` step. Replace the body with a call to your CRM:
 * `context.env` holds this Worker's bindings and vars (typed by `npm run types`), and
 * `context.secrets` the secrets the tool declares in `tool({ secrets })`.
 */
export const lookupCustomer = tool({
  description: "Look up the customer who sent a support ticket: their plan and how many tickets they have open.",
  inputSchema: z.object({ ticketId: z.string() }),
  outputSchema: z.object({ plan: z.enum(["free", "pro", "enterprise"]), openTickets: z.number().int() }),
  execute: async ({ ticketId }) => customerOf(ticketId),
});

/** A stand-in that needs no network: the same ticket always gives the same customer. */
export function customerOf(ticketId: string): { plan: "free" | "pro" | "enterprise"; openTickets: number } {
  const n = [...ticketId].reduce((sum, c) => sum + c.charCodeAt(0), 0);
  const plans = ["free", "pro", "enterprise"] as const;
  return { plan: plans[n % plans.length] ?? "free", openTickets: n % 4 };
}
