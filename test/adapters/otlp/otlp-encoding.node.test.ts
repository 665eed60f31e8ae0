/**
 * The OTLP encoding of a run's spans, both protocols, decoded with the OpenTelemetry protobuf
 * definitions (test/e2e/support/otlp-receiver.ts): what the builder made is what a collector reads.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeSpans, parseOtlpHeaders, parseOtlpProtocol, tracesUrl } from "../../../src/adapters/otlp/otlp-http-exporter.ts";
import { spansOfLog } from "../../../src/engine/observability/run-span-builder.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import { decodeOtlpRequest } from "../../e2e/support/otlp-receiver.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const golden = JSON.parse(readFileSync(join(ROOT, "test/histories/golden-composite.json"), "utf8")) as {
  runId: string;
  events: RunEvent[];
};
const spans = spansOfLog(golden.runId, golden.events, { recordContent: true });

describe("OTLP encoding of a run's spans", () => {
  for (const [protocol, contentType] of [
    ["http/protobuf", "application/x-protobuf"],
    ["http/json", "application/json"],
  ] as const) {
    it(`${protocol}: decodes to the same ids, parents, names, times, statuses and attributes`, () => {
      const decoded = decodeOtlpRequest(contentType, Buffer.from(encodeSpans(spans, protocol, "svc")));
      expect(decoded).toHaveLength(spans.length);
      const byId = new Map(decoded.map((s) => [s.spanId, s]));
      for (const span of spans) {
        const got = byId.get(span.spanId);
        expect(got, span.name).toBeDefined();
        expect(got).toMatchObject({
          traceId: span.traceId,
          parentSpanId: span.parentSpanId ?? null,
          name: span.name,
          startMs: span.startMs,
          endMs: span.endMs,
          kind: { internal: 1, server: 2, client: 3 }[span.kind],
          serviceName: "svc",
          attributes: span.attributes,
        });
        expect(got?.status.code ?? 0).toBe({ unset: 0, ok: 1, error: 2 }[span.status.code]);
      }
    });
  }

  it("reads the settings as OTEL_EXPORTER_OTLP_* does", () => {
    expect(tracesUrl("http://c:4318")).toBe("http://c:4318/v1/traces");
    expect(tracesUrl("https://api.honeycomb.io/v1/traces/")).toBe("https://api.honeycomb.io/v1/traces");
    expect(parseOtlpHeaders("x-honeycomb-team=k1, Authorization=Basic%20abc")).toEqual({
      "x-honeycomb-team": "k1",
      Authorization: "Basic abc",
    });
    expect(parseOtlpHeaders('{"a":"b"}')).toEqual({ a: "b" });
    expect(parseOtlpHeaders(undefined)).toEqual({});
    expect(parseOtlpProtocol(undefined)).toBe("http/protobuf");
    expect(parseOtlpProtocol("http/json")).toBe("http/json");
    expect(parseOtlpProtocol("grpc")).toBeNull();
  });
});
