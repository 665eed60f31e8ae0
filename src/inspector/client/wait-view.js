import { postJson } from "./api.js";
import { h, replace } from "./dom.js";
import { fmtTime } from "./format.js";

// The run's open waits, from the fold's state (view.state.stepWaits): a sleeping step with its wake
// time, and for a step waiting for signals a form per signal, generated from the signal's payload
// schema (as its WaitStarted recorded it), whose submit sends the signal.

/** Draws the waits section; redrawn only when the open waits change, so a half-filled form survives new events. */
export function renderWaits(section, body, view, runId, page) {
  const waits = [...view.state.stepWaits].filter(([, w]) => w.reason === "sleep" || w.reason === "signal");
  const ended = view.status === "completed" || view.status === "failed" || view.status === "cancelled";
  // A signal sent from a form usually ends its wait in the send itself (docs/waits.md): that form
  // stays, with its answer and its button disabled, until the run waits again or ends.
  if (waits.length === 0 && page.signalSent && !ended) {
    for (const button of body.querySelectorAll('button[type="submit"]')) button.disabled = true;
    return;
  }
  page.signalSent = false;
  const key = JSON.stringify(waits.map(([path, w]) => [path, w.reason, w.until]));
  if (key === page.waitsKey) return;
  page.waitsKey = key;
  section.hidden = waits.length === 0;
  if (section.hidden) return replace(body);
  replace(
    body,
    waits.map(([stepPath, wait]) =>
      wait.reason === "sleep"
        ? h(
            "p",
            { class: "wait-sleep", "data-step": stepPath },
            h("code", {}, stepPath),
            " sleeps until ",
            h("time", { class: "wake-at", datetime: new Date(wait.until).toISOString() }, fmtTime(wait.until)),
          )
        : h(
            "div",
            { class: "wait-signal", "data-step": stepPath },
            h(
              "p",
              {},
              h("code", {}, stepPath),
              " waits for a signal until ",
              h("time", { datetime: new Date(wait.until).toISOString() }, fmtTime(wait.until)),
            ),
            wait.signals.map((signal) => signalForm(runId, signal, page)),
          ),
    ),
  );
}

/** Reads a JSON Schema for the form: an object's properties, or null when it has none (a JSON editor then). */
function propertiesOf(schema) {
  if (schema?.type !== "object" || typeof schema.properties !== "object") return null;
  return Object.entries(schema.properties);
}

const SIMPLE = new Set(["string", "number", "integer", "boolean"]);

/** One form for one signal: a field per simple property (string, number, integer, boolean, enum), a JSON editor otherwise. */
function signalForm(runId, signal, page) {
  const properties = propertiesOf(signal.schema);
  const required = new Set(Array.isArray(signal.schema?.required) ? signal.schema.required : []);
  const fields = [];
  const readers = [];
  if (properties === null) {
    const area = h("textarea", { name: "payload", rows: "4", "aria-label": `${signal.name} payload (JSON)` }, "{}");
    fields.push(h("label", {}, "Payload (JSON) ", area));
    readers.push(() => JSON.parse(area.value || "null"));
  } else {
    for (const [name, prop] of properties) {
      const { control, read } = fieldOf(name, prop ?? {}, required.has(name));
      fields.push(h("label", { class: "signal-field" }, `${name}${required.has(name) ? "" : " (optional)"} `, control));
      readers.push((payload) => {
        const value = read();
        if (value !== undefined) payload[name] = value;
      });
    }
  }
  const status = h("p", { class: "signal-status", role: "status" });
  const form = h(
    "form",
    { class: "signal-form", "data-signal": signal.name },
    h("h3", {}, h("code", {}, signal.name)),
    signal.description ? h("p", { class: "hint" }, signal.description) : null,
    fields,
    h("button", { type: "submit" }, `Send ${signal.name}`),
    status,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let payload = {};
    try {
      for (const read of readers) payload = read(payload) ?? payload;
    } catch (error) {
      status.textContent = `Not sent: ${error.message}`;
      return;
    }
    // Set before the send: the run's events (its wait ended) may reach the page before the answer.
    page.signalSent = true;
    status.textContent = `Sending ${signal.name}…`;
    try {
      const answer = await postJson(`/v1/runs/${encodeURIComponent(runId)}/signals`, { name: signal.name, payload });
      const taken = answer.signal.consumed ? ` ${answer.signal.consumedBy ?? "The waiting step"} took it.` : "";
      status.textContent = `Sent ${answer.signal.name} (${answer.signal.id}).${taken}`;
    } catch (error) {
      page.signalSent = false;
      status.textContent = `Refused: ${error.code}: ${error.message}`;
    }
  });
  return form;
}

/** An input for one property, and how to read its value (undefined: leave the field out). */
function fieldOf(name, prop, isRequired) {
  if (Array.isArray(prop.enum)) {
    const select = h(
      "select",
      { name },
      isRequired ? null : h("option", { value: "" }, "—"),
      prop.enum.map((v) => h("option", { value: JSON.stringify(v) }, String(v))),
    );
    return { control: select, read: () => (select.value === "" ? undefined : JSON.parse(select.value)) };
  }
  if (prop.type === "boolean") {
    const box = h("input", { type: "checkbox", name });
    return { control: box, read: () => box.checked };
  }
  if (SIMPLE.has(prop.type)) {
    const numeric = prop.type === "number" || prop.type === "integer";
    const input = h("input", { type: numeric ? "number" : "text", name, ...(prop.type === "integer" ? { step: "1" } : {}) });
    return {
      control: input,
      read: () => {
        if (input.value === "") return isRequired && !numeric ? "" : undefined;
        return numeric ? Number(input.value) : input.value;
      },
    };
  }
  const area = h("textarea", { name, rows: "3", "aria-label": `${name} (JSON)` });
  return { control: area, read: () => (area.value.trim() === "" ? undefined : JSON.parse(area.value)) };
}
