/**
 * The helper's own framing of a command's output. The sandbox SDK's container server answers
 * `exec` with text it has trimmed (`printf "hello\n"` comes back as `hello`) and decoded, so the
 * helper never lets a command's bytes reach it raw: it prints one line
 * `LWF1 <exit> <base64 stdout> <base64 stderr>`, and the adapter decodes the bytes itself.
 */
export const FRAME_TAG = "LWF1";

const FRAME = new RegExp(`(?:^|\\n)${FRAME_TAG} (\\d+) ([A-Za-z0-9+/=]*) ([A-Za-z0-9+/=]*)\\s*$`);
// As just-bash decodes: a leading BOM is dropped, invalid bytes fall back to the latin1 view.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** What a framed helper call printed: the command's exit status and its two outputs as text. */
export type Framed = { readonly exit: number; readonly stdout: string; readonly stderr: string };

/** The frame at the end of the helper's stdout, or null when the helper printed none (it failed before the command ran). */
export function parseFrame(helperStdout: string): Framed | null {
  const match = FRAME.exec(helperStdout);
  if (!match) return null;
  return { exit: Number(match[1]), stdout: bytesToText(fromBase64(match[2] ?? "")), stderr: bytesToText(fromBase64(match[3] ?? "")) };
}

/**
 * Output bytes as the Sandbox port's text, by the isolate sandbox's rule (just-bash): UTF-8 when
 * the bytes are valid UTF-8, otherwise one character per byte (the latin1 view), so NUL, `\r\n`,
 * trailing newlines and invalid bytes all survive and both adapters answer the same string.
 *
 * @example
 * bytesToText(new Uint8Array([0x68, 0x69, 0x0a])) // "hi\n"
 * bytesToText(new Uint8Array([0x78, 0xff])) // "x\u00ff"
 */
export function bytesToText(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    return latin1(bytes);
  }
}

/** A text's UTF-8 bytes as base64 (what the helper's `base64 -d` turns back into the file). */
export function textToBase64(text: string): string {
  return btoa(latin1(new TextEncoder().encode(text)));
}

/** One character per byte (chunked: spreading a whole large array would overflow the stack). */
function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
