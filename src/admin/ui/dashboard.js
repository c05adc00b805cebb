// The dashboard: a live view over GET /emulator/v1/events (server-sent snapshots, one a second)
// and actions through the /emulator/v1/ API. Plain DOM, no dependencies; every client string is
// written with textContent. Tables update cell by cell so a thousand subscriptions stay cheap.
"use strict";

const $ = (sel) => document.querySelector(sel);
const WINDOW = 120; // chart points (seconds)
const SERIES = [
  ["published", "publish", "--pub"],
  ["delivered", "deliver", "--del"],
  ["acked", "ack", "--ack"],
];
const state = { renders: 0, snap: null, samples: [], selectedTopic: null, selectedSub: null, pulled: [] };

/** Every mutating call carries the header a cross-site form cannot send. */
async function api(method, path, body) {
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

function showError(e) {
  const el = $("#error");
  el.textContent = e ? String(e.message ?? e) : "";
  el.hidden = !e;
}

/** Runs an action; an error is shown at the top instead of being lost. */
const act = (fn) => async (ev) => {
  ev?.preventDefault?.();
  try {
    showError(null);
    await fn(ev);
  } catch (e) {
    showError(e);
  }
};

const short = (name) => name.replace(/^projects\/[^/]+\/(topics|subscriptions)\//, "");
const where = (e) => (e.subscription ? short(e.subscription) : e.topic ? short(e.topic) : "");
const pathOf = (name) => "/emulator/v1/" + name.split("/").map(encodeURIComponent).join("/");
const fmt = (n) => (n >= 1e6 ? (n / 1e6).toFixed(1) + "M" : n >= 1e4 ? (n / 1e3).toFixed(1) + "k" : String(n));
const age = (s) => (s <= 0 ? "–" : s < 60 ? s.toFixed(1) + " s" : s < 3600 ? (s / 60).toFixed(1) + " min" : (s / 3600).toFixed(1) + " h");
const text = (b64) => {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return "(binary)";
  }
};

function el(tag, props = {}, children = []) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

function button(label, onClick, cls = "link") {
  return el("button", { type: "button", className: cls, textContent: label, onclick: act(onClick) });
}

/**
 * Keeps a table body in step with `rows`: one <tr> per key, cells rewritten only when their text
 * changed, rows re-appended only when the order or membership changed.
 */
function syncTable(tbody, rows, key, cells, extra) {
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

function plainTable(tbody, rows) {
  tbody.replaceChildren(...rows.map((cells) => el("tr", {}, cells.map((c) => (c instanceof Node ? el("td", {}, [c]) : el("td", { textContent: String(c) }))))));
}

// ---- live feed ----

function connect() {
  const source = new EventSource("/emulator/v1/events");
  source.addEventListener("snapshot", (ev) => render(JSON.parse(ev.data)));
  source.onopen = () => setConn("live", "live");
  source.onerror = () => setConn("down", "reconnecting…");
}

function setConn(cls, label) {
  const c = $("#conn");
  c.className = "pill " + cls;
  c.textContent = label;
}

function render(snap) {
  const started = performance.now();
  state.snap = snap;
  state.samples.push({ t: snap.sentAt, ...snap.totals });
  if (state.samples.length > WINDOW + 1) state.samples.shift();
  $("#clock-mode").textContent = snap.clock.mode;
  $("#clock-time").textContent = snap.clock.time;
  $("#clock-toggle").textContent = snap.clock.mode === "manual" ? "Use system time" : "Use manual time";
  $("#history-state").textContent = snap.history.capacity ? `history: last ${fmt(snap.history.capacity)} messages` : "history off";
  renderTopics(snap.topics);
  renderSubs(snap.subscriptions);
  renderFaults(snap.faults);
  drawChart();
  if (state.selectedSub) refreshDetail();
  // Read by the browser test, which reports how long a live update takes.
  document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
  document.body.dataset.renders = String(++state.renders);
}

function rates() {
  const s = state.samples;
  const out = [];
  for (let i = 1; i < s.length; i++) {
    const dt = Math.max(1, s[i].t - s[i - 1].t) / 1000;
    out.push(SERIES.map(([k]) => Math.max(0, s[i][k] - s[i - 1][k]) / dt));
  }
  return out;
}

/** 1, 2 or 5 times a power of ten, at least `n`: axis labels stay round. */
function niceCeil(n) {
  const p = 10 ** Math.floor(Math.log10(n));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= n);
}

function drawChart() {
  const canvas = $("#chart");
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== w * dpr) (canvas.width = w * dpr), (canvas.height = h * dpr);
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  const data = rates();
  const max = niceCeil(Math.max(1, ...data.flat()));
  const styles = getComputedStyle(document.documentElement);
  g.strokeStyle = styles.getPropertyValue("--line");
  g.fillStyle = styles.getPropertyValue("--muted");
  g.font = "11px system-ui";
  for (const f of [0, 0.5, 1]) {
    const y = h - 14 - f * (h - 24);
    g.beginPath(), g.moveTo(40, y), g.lineTo(w, y), g.stroke();
    g.fillText(fmt(+(max * f).toFixed(1)), 2, y + 4);
  }
  const x = (i) => 40 + ((w - 40) * (WINDOW - data.length + i)) / (WINDOW - 1);
  SERIES.forEach(([, , color], j) => {
    g.strokeStyle = styles.getPropertyValue(color);
    g.lineWidth = 2;
    g.beginPath();
    data.forEach((r, i) => {
      const y = h - 14 - (r[j] / max) * (h - 24);
      i ? g.lineTo(x(i), y) : g.moveTo(x(i), y);
    });
    if (data.length === 1) g.lineTo(x(0) - 2, h - 14 - (data[0][j] / max) * (h - 24));
    g.stroke();
  });
  const last = data.at(-1) ?? [0, 0, 0];
  const legend = $("#legend");
  if (!legend.children.length) {
    for (const [key, label, color] of SERIES) {
      legend.append(el("li", {}, [el("i", { style: `background: var(${color})` }), label, el("b", { id: `rate-${key}` })]));
    }
  }
  SERIES.forEach(([key], j) => ($(`#rate-${key}`).textContent = `${last[j].toFixed(1)}/s · ${fmt(state.snap.totals[key])}`));
}

// ---- topics and subscriptions ----

function renderTopics(topics) {
  $("#topic-count").textContent = `(${topics.length})`;
  topics.sort((a, b) => (a.name < b.name ? -1 : 1));
  const rows = syncTable($("#topics tbody"), topics, (t) => t.name, (t) => [t.name, t.subscriptions, t.published],
    (t) => button("delete", async () => confirm(`Delete ${t.name}?`) && (await api("DELETE", pathOf(t.name)))));
  for (const [name, tr] of rows) {
    tr.className = "pick" + (name === state.selectedTopic ? " selected" : "");
    tr.onclick ??= (ev) => ev.target.tagName !== "BUTTON" && selectTopic(name);
  }
}

function selectTopic(name) {
  state.selectedTopic = name;
  $("#publish").hidden = false;
  $("#publish-topic").textContent = name;
  $("#create-sub [name=topic]").value = name;
  renderTopics(state.snap.topics);
}

function renderSubs(subs) {
  const filter = $("#sub-filter").value.trim();
  const shown = (filter ? subs.filter((s) => s.name.includes(filter)) : subs).sort((a, b) => (a.name < b.name ? -1 : 1));
  $("#sub-count").textContent = filter ? `(${shown.length} of ${subs.length})` : `(${subs.length})`;
  const rows = syncTable($("#subs tbody"), shown, (s) => s.name,
    (s) => [short(s.name), s.backlog, age(s.oldestUnackedAgeSeconds), s.outstanding, s.openStreams, s.delivered, s.acked, s.nacked, s.expired, s.deadLettered],
    (s) => button("delete", async () => confirm(`Delete ${s.name}?`) && (await api("DELETE", pathOf(s.name)))));
  for (const [name, tr] of rows) {
    tr.className = "pick" + (name === state.selectedSub ? " selected" : "");
    tr.title = name;
    tr.onclick ??= (ev) => ev.target.tagName !== "BUTTON" && selectSub(name);
  }
}

function selectSub(name) {
  state.selectedSub = name;
  state.pulled = [];
  $("#detail").hidden = false;
  $("#detail-name").textContent = name;
  renderPulled();
  renderSubs(state.snap.subscriptions);
  refreshDetail();
}

async function refreshDetail() {
  const name = state.selectedSub;
  try {
    const { leases, outstanding } = await api("GET", pathOf(name) + "/leases?limit=200");
    if (name !== state.selectedSub) return;
    $("#lease-count").textContent = `(${outstanding})`;
    plainTable($("#leases tbody"), leases.map((l) => [historyLink(l.messageId), l.deliveryAttempt, l.secondsLeft.toFixed(1), l.consumer]));
  } catch (e) {
    if (!state.snap.subscriptions.some((s) => s.name === name)) ($("#detail").hidden = true), (state.selectedSub = null);
  }
}

function historyLink(id) {
  return button(id, async () => {
    $("#history-form [name=id]").value = id;
    await showHistory(id);
  });
}

async function peek() {
  const res = await api("GET", pathOf(state.selectedSub) + "/messages?limit=" + Number($("#pull-max").value || 10));
  plainTable($("#peeked tbody"), res.messages.map((m) => [historyLink(m.messageId), el("span", { className: "data", textContent: text(m.data) }), m.publishTime, m.deliveryAttempts]));
  $("#detail-result").textContent = `${res.waiting} waiting`;
}

async function pull() {
  const res = await api("POST", pathOf(state.selectedSub) + "/pull", { maxMessages: Number($("#pull-max").value || 10) });
  state.pulled.push(...res.receivedMessages);
  renderPulled();
  await peek();
  $("#detail-result").textContent = `pulled ${res.receivedMessages.length}`;
}

function renderPulled() {
  const settle = (r, path, body) => async () => {
    await api("POST", pathOf(state.selectedSub) + path, body);
    state.pulled = state.pulled.filter((x) => x !== r);
    renderPulled();
    await peek();
  };
  plainTable($("#pulled tbody"), state.pulled.map((r) => [
    historyLink(r.message.messageId),
    el("span", { className: "data", textContent: text(r.message.data) }),
    r.deliveryAttempt,
    el("span", {}, [
      button("ack", settle(r, "/acknowledge", { ackIds: [r.ackId] })),
      button("nack", settle(r, "/modify-ack-deadline", { ackIds: [r.ackId], ackDeadlineSeconds: 0 })),
    ]),
  ]));
}

// ---- history and faults ----

async function showHistory(id) {
  const h = await api("GET", "/emulator/v1/messages/" + encodeURIComponent(id));
  const links = [h.forwardedFrom && `copy of ${h.forwardedFrom}`, h.forwardedAs && `dead-lettered as ${h.forwardedAs}`].filter(Boolean).join(", ");
  $("#history-meta").textContent = `${h.messageId} on ${h.topic}, ${h.size} bytes${links ? " · " + links : ""}`;
  plainTable($("#history tbody"), h.events.map((e) => [
    e.time, e.event, where(e),
    e.event === "delivered" ? `attempt ${e.deliveryAttempt}, until ${e.deadline}` : e.deadLetterTopic ?? e.ackId ?? "",
  ]));
}

function renderFaults(faults) {
  $("#fault-count").textContent = `(${faults.length})`;
  const describe = (f) => (f.error ? `${f.error.code}${f.error.retryDelay ? ` retry ${f.error.retryDelay}` : ""}` : f.delay ? `delay ${f.delay}` : `drop ${f.dropAcks * 100}% acks`);
  syncTable($("#faults tbody"), faults, (f) => f.id, (f) => [f.method, f.resource || "all", describe(f), f.remaining ?? "∞", f.hits],
    (f) => button("remove", () => api("DELETE", "/emulator/v1/faults/" + f.id)));
}

function faultBody(form) {
  const v = Object.fromEntries(new FormData(form));
  const body = { method: v.method || "*", resource: v.resource || undefined };
  if (v.kind === "error") body.error = { code: v.value.trim().toUpperCase() };
  else if (v.kind === "delay") body.delay = v.value.trim();
  else body.dropAcks = Number(v.value);
  if (v.count) body.count = Number(v.count);
  return body;
}

// ---- wiring ----

function wire() {
  $("#reset").onclick = act(async () => confirm("Delete every topic and subscription and clear faults?") && (await api("POST", "/emulator/v1/reset")));
  $("#clock-toggle").onclick = act(() => api("POST", "/emulator/v1/clock/mode", { mode: state.snap?.clock.mode === "manual" ? "system" : "manual" }));
  $("#clock-advance-btn").onclick = act(() => api("POST", "/emulator/v1/clock/advance", { duration: $("#clock-advance").value.trim() }));
  $("#create-topic").onsubmit = act(async (ev) => {
    const name = ev.target.name.value.trim();
    await api("POST", pathOf(name));
    selectTopic(name);
  });
  $("#create-sub").onsubmit = act(async (ev) => {
    const f = ev.target;
    await api("POST", pathOf(f.name.value.trim()), { topic: f.topic.value.trim() });
  });
  $("#publish").onsubmit = act(async (ev) => {
    const f = ev.target;
    const attributes = f.attributes.value.trim() ? JSON.parse(f.attributes.value) : undefined;
    const data = btoa(String.fromCharCode(...new TextEncoder().encode(f.data.value)));
    const res = await api("POST", pathOf(state.selectedTopic) + "/publish", { messages: [{ data, attributes, orderingKey: f.orderingKey.value || undefined }] });
    $("#publish-result").textContent = `published ${res.messageIds.join(", ")}`;
  });
  $("#sub-filter").oninput = () => state.snap && renderSubs(state.snap.subscriptions);
  $("#pull-btn").onclick = act(pull);
  $("#peek-btn").onclick = act(peek);
  $("#history-form").onsubmit = act((ev) => showHistory(ev.target.id.value.trim()));
  $("#add-fault").onsubmit = act((ev) => api("POST", "/emulator/v1/faults", faultBody(ev.target)));
  $("#clear-faults").onclick = act(() => api("DELETE", "/emulator/v1/faults"));
  $("#add-fault [name=kind]").onchange = (ev) => ($("#add-fault [name=value]").value = { error: "UNAVAILABLE", delay: "500ms", dropAcks: "0.5" }[ev.target.value]);
}

wire();
connect();
