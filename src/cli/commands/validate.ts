import { validateLwir } from "../../lwir/validate-lwir.ts";
import { readJsonDocument } from "../read-document.ts";

/** `little validate <lwir.json>`: prints `{ valid, findings }`; exit 0 when valid, 1 when not. */
export async function validateCommand(path: string): Promise<{ output: unknown; exitCode: 0 | 1 }> {
  const { value } = await readJsonDocument(path);
  const result = validateLwir(value);
  return { output: { valid: result.valid, findings: result.findings }, exitCode: result.valid ? 0 : 1 };
}
