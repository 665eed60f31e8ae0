import { contentAddress } from "../../identity/workflow-version.ts";
import { CANONICALIZER_ID } from "../../json/canonical-json.ts";
import { LittleError } from "../../sdk/errors/little-error.ts";
import { CliInputError } from "../cli-error.ts";
import { readJsonDocument } from "../read-document.ts";

/**
 * `little hash <file.json>`: the canonical digest of any JSON document and the version id it
 * would get if it were registered as LWIR.
 */
export async function hashCommand(path: string): Promise<{ output: unknown; exitCode: 0 }> {
  const { value } = await readJsonDocument(path);
  try {
    const version = contentAddress(value);
    return {
      output: {
        canonicalizer: CANONICALIZER_ID,
        hash: version.hash,
        versionId: version.id,
        canonicalBytes: Buffer.byteLength(version.canonicalJson, "utf8"),
      },
      exitCode: 0,
    };
  } catch (error) {
    if (LittleError.is(error)) throw new CliInputError(error.code, error.message);
    throw error;
  }
}
