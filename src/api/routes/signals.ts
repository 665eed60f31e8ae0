import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { findTenantRun } from "../../engine/runs/find-tenant-run.ts";
import type { ApiEnv } from "../api-env.ts";
import { requireTenant } from "../auth.ts";
import { ErrorBody, json, runErrors, Signal } from "../schemas.ts";
import { sendTenantSignal } from "../signal-operations.ts";

/** Signals sent to a run for its `wait.signal` steps: send one, list them (docs/waits.md). */
export const signalRoutes = new OpenAPIHono<ApiEnv>();
signalRoutes.use("/runs/*", requireTenant());

/** What `POST /v1/runs/{runId}/signals` takes. */
export const SendSignalBody = z
  .object({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9_.-]{0,63}$/)
      .openapi({ description: "A signal the run's workflow declares" }),
    payload: z.unknown().openapi({ description: "Valid against the signal's declared schema" }),
    id: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._:-]+$/)
      .optional()
      .openapi({ description: "Makes a resend idempotent: the same id answers the same signal, delivered once" }),
  })
  .openapi("SendSignal");

signalRoutes.openapi(
  createRoute({
    method: "post",
    path: "/runs/{runId}/signals",
    operationId: "sendSignal",
    tags: ["runs"],
    summary: "Send a signal to a run",
    description:
      "The signal is appended to the run's log and synced before this answers, so a 202 is never lost. A `wait.signal` step naming it takes it; sent before any wait, it is buffered and taken by the first wait that names it (first in, first out). Refusals store nothing: 422 `signal_unknown` (the workflow does not declare the name; the message lists the declared ones), 422 `signal_payload_invalid` (with findings), 409 `run_ended`, 409 `signal_id_conflict` (the id was sent with another name or payload).",
    request: {
      params: z.object({ runId: z.string() }),
      body: { content: { "application/json": { schema: SendSignalBody } }, required: true },
    },
    responses: {
      202: json(z.object({ signal: Signal, created: z.boolean() }), "Durable in the run's log (`created: false` for a resend of its id)"),
      409: json(ErrorBody, "The run has ended, or the id was sent with another signal"),
      422: json(ErrorBody, "An undeclared signal name, or a payload its schema refuses"),
      ...runErrors,
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const result = await sendTenantSignal(c.var.services, c.var.tenant, c.req.valid("param").runId, body);
    return c.json({ signal: result.signal, created: result.created }, 202);
  },
);

signalRoutes.openapi(
  createRoute({
    method: "get",
    path: "/runs/{runId}/signals",
    operationId: "listSignals",
    tags: ["runs"],
    summary: "A run's signals, and what its waits take",
    description:
      "Every signal sent to the run in arrival order, with whether a wait consumed it, and the signals its open `wait.signal` steps take with their payload schemas.",
    request: { params: z.object({ runId: z.string() }) },
    responses: {
      200: json(
        z.object({
          signals: z.array(Signal),
          awaiting: z.array(z.object({ name: z.string(), description: z.string(), schema: z.unknown(), stepPath: z.string() })),
        }),
        "The signals",
      ),
      ...runErrors,
    },
  }),
  async (c) => {
    const { client } = await findTenantRun(c.var.services, c.var.tenant, c.req.valid("param").runId);
    const view = await client.status();
    return c.json({ signals: view.signals ?? [], awaiting: view.awaitingSignals ?? [] }, 200);
  },
);
