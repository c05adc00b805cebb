// Small DOM and formatting helpers for the dashboard, and the one way it calls the API.
export const $ = (sel) => document.querySelector(sel);

/** Every mutating call carries the header a cross-site form cannot send. */
export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { "x-emulator-admin": "dashboard", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : {};
  if (!res.ok) throw new Error(json.error?.message ?? `${res.status} ${res.statusText}`);
  return json;
}

export function showError(e) {
  const el = $("#error");
  el.textContent = e ? String(e.message ?? e) : "";
  el.hidden = !e;
}

/** Runs an action; an error is shown at the top instead of being lost. */
export const act = (fn) => async (ev) => {
  ev?.preventDefault?.();
  try {
    showError(null);
    await fn(ev);
  } catch (e) {
    showError(e);
  }
};

export const short = (name) => name.replace(/^projects\/[^/]+\/(topics|subscriptions)\//, "");
export const where = (e) => (e.subscription ? short(e.subscription) : e.topic ? short(e.topic) : "");
export const pathOf = (name) => "/emulator/v1/" + name.split("/").map(encodeURIComponent).join("/");
export const fmt = (n) => (n >= 1e6 ? (n / 1e6).toFixed(1) + "M" : n >= 1e4 ? (n / 1e3).toFixed(1) + "k" : String(n));
export const age = (s) => (s <= 0 ? "–" : s < 60 ? s.toFixed(1) + " s" : s < 3600 ? (s / 60).toFixed(1) + " min" : (s / 3600).toFixed(1) + " h");
export const text = (b64) => {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return "(binary)";
  }
};

export function el(tag, props = {}, children = []) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

export function button(label, onClick, cls = "link") {
  return el("button", { type: "button", className: cls, textContent: label, onclick: act(onClick) });
}

/**
 * Keeps a table body in step with `rows`: one <tr> per key, cells rewritten only when their text
 * changed, rows re-appended only when the order or membership changed.
 */
export function syncTable(tbody, rows, key, cells, extra) {
  const byKey = tbody._rows ?? (tbody._rows = new Map());
  const seen = new Set();
  let order = [];
  for (const row of rows) {
    const k = key(row);
    seen.add(k);
    let tr = byKey.get(k);
    const values = cells(row);
    if (!tr) {
      tr = el("tr");
      tr._cells = values.map((v) => {
        const td = el("td", { className: typeof v === "number" ? "num" : "" });
        tr.append(td);
        return td;
      });
      if (extra) tr.append(el("td", {}, [extra(row)]));
      byKey.set(k, tr);
    }
    values.forEach((v, i) => {
      const s = typeof v === "number" ? fmt(v) : v;
      if (tr._cells[i].textContent !== s) tr._cells[i].textContent = s;
    });
    order.push(tr);
  }
  for (const [k, tr] of byKey) if (!seen.has(k)) (tr.remove(), byKey.delete(k));
  const current = tbody.children;
  if (current.length !== order.length || order.some((tr, i) => current[i] !== tr)) tbody.append(...order);
  return byKey;
}

export function plainTable(tbody, rows) {
  tbody.replaceChildren(...rows.map((cells) => el("tr", {}, cells.map((c) => (c instanceof Node ? el("td", {}, [c]) : el("td", { textContent: String(c) }))))));
}
