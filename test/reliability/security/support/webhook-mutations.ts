import { Webhook } from "standardwebhooks";
import type { Rng } from "./random.ts";
import { type Headers3, signDelivery, WEBHOOK_SECRET } from "./webhook-delivery.ts";

/** One mutated delivery: what was changed, the bytes and headers to send. */
export type Mutant = { kind: string; body: Uint8Array; headers: Record<string, string> };

const WRONG_SECRETS = [
  "whsec_dGhpcyBpcyBhbiBvbGQga2V5IHRoYXQgaXMgcm90YXRlZA==",
  "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
  // The right key bytes but one bit different.
  "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSx",
];

const encoder = new TextEncoder();
const PRINTABLE = /^[\x21-\x7e]*$/;

/** Flips one bit of one character so the result stays a printable, non-space ASCII header value. */
function flipPrintable(rng: Rng, text: string): string {
  for (;;) {
    const i = rng.int(text.length);
    const flipped = String.fromCharCode(text.charCodeAt(i) ^ (1 << rng.int(7)));
    const out = text.slice(0, i) + flipped + text.slice(i + 1);
    if (out !== text && PRINTABLE.test(flipped)) return out;
  }
}

function signature(id: string, at: number, body: string, secret = WEBHOOK_SECRET): string {
  return new Webhook(secret).sign(id, new Date(at * 1000), body);
}

/**
 * A delivery the Worker must refuse, made from a valid one (`body` signed as `signed`) by one of
 * many mutations: body bit flips, truncations, extensions and semantically-equal rewrites; id,
 * timestamp and signature changes; other secrets; lists of wrong signatures.
 */
export function mutate(rng: Rng, body: string, signed: Headers3): Mutant {
  const id = signed["webhook-id"];
  const at = Number(signed["webhook-timestamp"]);
  const bytes = encoder.encode(body);
  const same = (kind: string, b: Uint8Array | string, h: Partial<Headers3> = {}): Mutant => ({
    kind,
    body: typeof b === "string" ? encoder.encode(b) : b,
    headers: { ...signed, ...h },
  });
  const kinds = [
    () => {
      const copy = bytes.slice();
      const i = rng.int(copy.length);
      copy[i] = (copy[i] as number) ^ (1 << rng.int(8));
      return same("body.bitflip", copy);
    },
    () => same("body.truncate", bytes.slice(0, rng.int(bytes.length))),
    () => same("body.extend", `${body}${rng.pick([" ", "\n", "\u0000", "x", "{}", body])}`),
    () => {
      const i = rng.int(body.length + 1);
      return same("body.whitespace", `${body.slice(0, i)} ${body.slice(i)}`);
    },
    () => same("body.reordered-keys", JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(body)).reverse()))),
    () =>
      same(
        "body.unicode-escaped",
        body.replace(/[A-Za-z]/, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
      ),
    () => same("body.empty", ""),
    () => same("id.bitflip", bytes, { "webhook-id": flipPrintable(rng, id) }),
    () => same("id.truncate", bytes, { "webhook-id": id.slice(0, 1 + rng.int(id.length - 1)) }),
    () => same("id.extend", bytes, { "webhook-id": `${id}${rng.pick(["0", "_", ".", "x"])}` }),
    () => same("id.case", bytes, { "webhook-id": id.toUpperCase() }),
    () => same("timestamp.shift", bytes, { "webhook-timestamp": String(at + (rng.bool() ? 1 : -1) * (1 + rng.int(299))) }),
    () => same("timestamp.suffix", bytes, { "webhook-timestamp": `${at}${rng.pick(["abc", ".5", "e0", " 1", "0x", "Z"])}` }),
    () => same("timestamp.prefix", bytes, { "webhook-timestamp": `${rng.pick(["0", "+", "00", "-"])}${at}` }),
    () => same("timestamp.bitflip", bytes, { "webhook-timestamp": flipPrintable(rng, String(at)) }),
    () => same("timestamp.milliseconds", bytes, { "webhook-timestamp": String(at * 1000) }),
    () => {
      const [version, sig] = signed["webhook-signature"].split(",") as [string, string];
      return same("signature.bitflip", bytes, { "webhook-signature": `${version},${flipPrintable(rng, sig)}` });
    },
    () => same("signature.truncate", bytes, { "webhook-signature": signed["webhook-signature"].slice(0, 3 + rng.int(40)) }),
    () => {
      const sig = signed["webhook-signature"].slice(3);
      return same("signature.version", bytes, { "webhook-signature": `${rng.pick(["v2", "V1", "v1a", "v0", "", "v1 "])},${sig}` });
    },
    () => same("signature.bare", bytes, { "webhook-signature": signed["webhook-signature"].slice(3) }),
    () => same("signature.wrong-secret", bytes, { "webhook-signature": signature(id, at, body, rng.pick(WRONG_SECRETS)) }),
    () => same("signature.other-id", bytes, { "webhook-signature": signature(`${id}x`, at, body) }),
    () => same("signature.other-timestamp", bytes, { "webhook-signature": signature(id, at - 1, body) }),
    () => same("signature.other-body", bytes, { "webhook-signature": signature(id, at, `${body} `) }),
    () => {
      const n = 2 + rng.int(9);
      const wrong = Array.from({ length: n }, (_, k) => signature(`${id}-${k}`, at, body, rng.pick(WRONG_SECRETS)));
      return same("signature.many-wrong", bytes, { "webhook-signature": wrong.join(" ") });
    },
    () => {
      // A body changed, then signed again by someone who does not hold the secret.
      const forged = `${body.slice(0, -1)},"admin":true}`;
      return same("forged.body-and-wrong-secret", forged, { "webhook-signature": signature(id, at, forged, rng.pick(WRONG_SECRETS)) });
    },
    () => {
      // A valid signature moved onto another delivery.
      const other = signDelivery(`${id}-other`, body, at);
      return same("replay.signature-of-other-id", bytes, { "webhook-signature": other["webhook-signature"] });
    },
  ];
  return rng.pick(kinds)();
}
