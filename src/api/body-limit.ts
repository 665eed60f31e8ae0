import { ApiError } from "./api-error.ts";

/** The largest request body accepted (run inputs, LWIR documents, webhook payloads). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** 413 `payload_too_large`: the one answer to a body over the limit, however it was sent. */
export const payloadTooLarge = (maxBytes: number) => new ApiError("payload_too_large", `The request body is larger than ${maxBytes} bytes`);

/**
 * The request's raw bytes, read as a stream that stops at `maxBytes`: a declared Content-Length
 * over it is refused before reading, and a body sent without one is cut off (and its stream
 * cancelled) at the first chunk past it, so no more than the limit is ever held.
 */
export async function readLimitedBody(request: Request, maxBytes: number = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw payloadTooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
