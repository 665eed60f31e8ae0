/**
 * The OpenAPI document's tags: every operation names one of these (its group in a generated
 * client and in API browsers), and the document declares them all at the top level.
 * test/api/openapi.node.test.ts fails on an operation without a declared tag.
 */
export const OPERATION_TAGS = [
  { name: "runs", description: "Start runs (HTTP, LWIR, section triggers, anchors), read, list and cancel them" },
  { name: "events", description: "A run's event log: pages, and the live Server-Sent Events stream" },
  { name: "approvals", description: "Tool calls held for approval: list them, approve or deny one" },
  { name: "workflows", description: "The workflows this Worker runs, and the versions the tenant's runs were compiled to" },
  { name: "definitions", description: "Definition hashes: approve one, pin a version, unpin" },
  { name: "lwir", description: "LWIR documents: validate one, read the JSON Schema" },
  { name: "secrets", description: "The tenant's encrypted secrets (write-only values)" },
  { name: "tokens", description: "API tokens: create (admin token), list, revoke" },
  { name: "tenants", description: "A tenant's settings (admin): how long its ended runs are kept" },
  { name: "webhooks", description: "Signed webhook deliveries (Standard Webhooks) that start or trigger runs" },
] as const;
