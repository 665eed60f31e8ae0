import { call, tenantToken } from "../../../api/support/api-call.ts";
import { canary } from "./secret-forms.ts";

/** A new tenant with its own token and `CRM_TOKEN` set to a fresh canary; `served` holds what setting it answered. */
export async function tenantWithSecret(tag: string): Promise<{ tenant: string; token: string; secret: string; served: string[] }> {
  const tenant = `inj_${tag}_${crypto.randomUUID().slice(0, 8)}`;
  const token = await tenantToken(tenant);
  const secret = canary(tag);
  const put = await call("PUT", "/v1/secrets/CRM_TOKEN", { token, body: { value: secret } });
  if (put.status !== 200) throw new Error(`setting CRM_TOKEN for ${tenant}: ${put.status} ${put.text}`);
  return { tenant, token, secret, served: [put.text, (await call("GET", "/v1/secrets", { token })).text] };
}
