/**
 * A test OTLP/HTTP trace receiver in Node: decodes every request with the OpenTelemetry project's
 * own protobuf definitions (the generated `ExportTraceServiceRequest` of
 * `@opentelemetry/otlp-transformer` 0.57, installed as the dev dependency `otlp-proto-0.57`), so a
 * request that is not a valid OTLP export fails the test instead of being accepted.
 * `http/json` requests are read as the OTLP/JSON mapping (hex ids) and checked against the same
 * message type with `verify`. It can be told to fail (`status`) or to answer slowly (`delayMs`).
 */

import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

const require = createRequire(import.meta.url);
type ProtoMessage = {
  decode(bytes: Uint8Array): unknown;
  toObject(m: unknown, o: object): unknown;
  fromObject(o: unknown): unknown;
  verify(o: unknown): string | null;
};
const root = require("otlp-proto-0.57/build/src/generated/root.js") as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoMessage } } } } };
};
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** One span as received: ids in hex, times in ms, attributes as plain values. */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean>;
  status: { code: number; message?: string };
  flags: number;
  serviceName: string | undefined;
};

export type OtlpReceiver = {
  readonly url: string;
  readonly spans: ReceivedSpan[];
  readonly requests: { contentType: string; spans: number; headers: Record<string, string | string[] | undefined> }[];
  /** Answer every request with this status (200: accept). */
  status: number;
  /** Wait this long before answering. */
  delayMs: number;
  close(): Promise<void>;
};

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

function plain(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  throw new Error(`unexpected attribute value ${JSON.stringify(value)}`);
}

const attrs = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));
const nanosToMs = (n: string | number) => Number(BigInt(n) / 1_000_000n);

type Decoded = {
  resourceSpans: { resource?: { attributes?: KeyValue[] }; scopeSpans: { spans: Record<string, unknown>[] }[] }[];
};

function spansOf(request: Decoded, hexIds: (v: unknown) => string): ReceivedSpan[] {
  return request.resourceSpans.flatMap((rs) => {
    const serviceName = attrs(rs.resource?.attributes)["service.name"] as string | undefined;
    return rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((s) => ({
        traceId: hexIds(s.traceId),
        spanId: hexIds(s.spanId),
        parentSpanId: s.parentSpanId && hexIds(s.parentSpanId) !== "" ? hexIds(s.parentSpanId) : null,
        name: s.name as string,
        kind: Number(s.kind ?? 0),
        startMs: nanosToMs(s.startTimeUnixNano as string),
        endMs: nanosToMs(s.endTimeUnixNano as string),
        attributes: attrs(s.attributes as KeyValue[]),
        status: (s.status as { code: number; message?: string }) ?? { code: 0 },
        flags: Number(s.flags ?? 0),
        serviceName,
      })),
    );
  });
}

/** Decodes one OTLP/HTTP trace request body by its content type; throws when it is not a valid export. */
export function decodeOtlpRequest(contentType: string, body: Buffer): ReceivedSpan[] {
  if (contentType.includes("application/x-protobuf")) {
    const message = Request.decode(new Uint8Array(body));
    const object = Request.toObject(message, { longs: String, enums: Number, bytes: (b: Uint8Array) => b, defaults: false }) as Decoded;
    return spansOf(object, (v) => Buffer.from(v as Uint8Array).toString("hex"));
  }
  if (contentType.includes("application/json")) {
    const object = JSON.parse(body.toString("utf8")) as Decoded;
    // OTLP/JSON carries ids as hex, not base64, and 64-bit numbers as strings: read it into the
    // message type (ids left out) and verify that.
    const checked = JSON.parse(JSON.stringify(object, (k, v) => (["traceId", "spanId", "parentSpanId"].includes(k) ? undefined : v)));
    const problem = Request.verify(Request.fromObject(checked));
    if (problem) throw new Error(`not an OTLP ExportTraceServiceRequest: ${problem}`);
    return spansOf(object, (v) => String(v ?? ""));
  }
  throw new Error(`unexpected content-type ${contentType}`);
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver = { spans: [] as ReceivedSpan[], requests: [] as OtlpReceiver["requests"], status: 200, delayMs: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      if (receiver.delayMs > 0) await new Promise((r) => setTimeout(r, receiver.delayMs));
      if (req.url !== "/v1/traces" || req.method !== "POST") {
        res.writeHead(404).end();
        return;
      }
      if (receiver.status !== 200) {
        res.writeHead(receiver.status).end();
        return;
      }
      const contentType = req.headers["content-type"] ?? "";
      try {
        const spans = decodeOtlpRequest(contentType, Buffer.concat(chunks));
        receiver.spans.push(...spans);
        receiver.requests.push({ contentType, spans: spans.length, headers: req.headers });
        res.writeHead(200, { "content-type": contentType }).end();
      } catch (error) {
        receiver.requests.push({ contentType, spans: -1, headers: req.headers });
        res.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
