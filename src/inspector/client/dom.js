// Tiny DOM helpers: elements are built with textContent only, so nothing from a run's events or
// its LWIR is ever parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element with attributes (`class`, `data-*`, …) and children (nodes or text). */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, likewise. */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

function fill(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return el;
}

/** Replaces an element's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  fill(el, {}, children);
  return el;
}
