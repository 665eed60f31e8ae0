import type { Context } from "hono";

/** The code a login form that cannot be read answers with (400; also in the `x-little-error` header). */
export const LOGIN_FORM_INVALID = "login_form_invalid";

/** The two fields of a login form, as posted. */
export type LoginForm = { readonly token: string; readonly next: string | undefined };

/**
 * The login form's fields, or null when the body is no form the platform can read: a truncated
 * multipart body, a boundary that never closes, a content type that promises a form and sends
 * something else. `parseBody` throws on those (a TypeError from the runtime's form parser), which
 * answered 500.
 */
export async function readLoginForm(c: Context): Promise<LoginForm | null> {
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody();
  } catch {
    return null;
  }
  return {
    token: typeof form.token === "string" ? form.token.trim() : "",
    next: typeof form.next === "string" ? form.next : undefined,
  };
}
