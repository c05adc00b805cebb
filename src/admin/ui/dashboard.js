// The dashboard: a live view over GET /emulator/v1/events (server-sent snapshots, one a second)
// and actions through the /emulator/v1/ API. Plain DOM, no dependencies; every client string is
// written with textContent. Tables update cell by cell so a thousand subscriptions stay cheap.
import { WINDOW, drawChart } from "./chart.js";
import { $, act, age, api, button, el, fmt, pathOf, plainTable, short, syncTable, text, where } from "./dom.js";

const state = { renders: 0, snap: null, samples: [], selectedTopic: null, selectedSub: null, pulled: [] };

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
  drawChart(state.samples, snap.totals);
  if (state.selectedSub) refreshDetail();
  // Read by the browser test, which reports how long a live update takes.
  document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
  document.body.dataset.renders = String(++state.renders);
}

// ---- topics and subscriptions ----

function renderTopics(topics) {
  $("#topic-count").textContent = `(${topics.length})`;
  topics.sort((a, b) => (a.name < b.name ? -1 : 1));
  const rows = syncTable($("#topics tbody"), topics, (t) => t.name, (t) => [t.name, t.subscriptions, t.published, importCell(t.ingestion), t.transforms],
    (t) => button("delete", async () => confirm(`Delete ${t.name}?`) && (await api("DELETE", pathOf(t.name)))));
  for (const [name, tr] of rows) {
    tr.className = "pick" + (name === state.selectedTopic ? " selected" : "");
    tr.onclick ??= (ev) => ev.target.tagName !== "BUTTON" && selectTopic(name);
  }
}

/** An import topic's source state and what it brought in (Cloud Storage objects, messages, failures). */
function importCell(i) {
  if (!i) return "";
  const parts = [i.state, `${fmt(i.messages)} msgs`];
  if (i.objects) parts.push(`${fmt(i.objects)} objects`);
  if (i.failed) parts.push(`${fmt(i.failed)} failed`);
  return parts.join(" · ");
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
    (s) => [short(s.name), s.backlog, age(s.oldestUnackedAgeSeconds), s.outstanding, s.openStreams, s.delivered, s.acked, s.nacked, s.expired, s.deadLettered, rowsCell(s), s.transforms],
    (s) => button("delete", async () => confirm(`Delete ${s.name}?`) && (await api("DELETE", pathOf(s.name)))));
  for (const [name, tr] of rows) {
    tr.className = "pick" + (name === state.selectedSub ? " selected" : "");
    tr.title = name;
    tr.onclick ??= (ev) => ev.target.tagName !== "BUTTON" && selectSub(name);
  }
}

/** Export subscriptions: rows (Cloud Storage: objects) written and the destination's state. */
const rowsCell = (s) =>
  s.exportKind === "cloud_storage"
    ? `${s.objectsWritten} objects (${s.rowsWritten} msgs) · ${s.exportState}`
    : s.exportKind ? `${s.rowsWritten} ${s.exportKind} · ${s.exportState}` : "";

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
  const describe = (f) => (f.error ? `${f.error.code}${f.error.retryDelay ? ` retry ${f.error.retryDelay}` : ""}` : f.delay ? `delay ${f.delay}` : f.transientAckFailure ? `acks fail ${f.transientAckFailure}` : `drop ${f.dropAcks * 100}% acks`);
  syncTable($("#faults tbody"), faults, (f) => f.id, (f) => [f.method, f.resource || "all", describe(f), f.remaining ?? "∞", f.hits],
    (f) => button("remove", () => api("DELETE", "/emulator/v1/faults/" + f.id)));
}

function faultBody(form) {
  const v = Object.fromEntries(new FormData(form));
  const body = { method: v.method || "*", resource: v.resource || undefined };
  if (v.kind === "error") body.error = { code: v.value.trim().toUpperCase() };
  else if (v.kind === "delay") body.delay = v.value.trim();
  else if (v.kind === "transientAckFailure") body.transientAckFailure = v.value.trim() || true;
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
  $("#add-fault [name=kind]").onchange = (ev) => ($("#add-fault [name=value]").value = { error: "UNAVAILABLE", delay: "500ms", dropAcks: "0.5", transientAckFailure: "TRANSIENT_FAILURE_UNORDERED_ACK_ID" }[ev.target.value]);
}

wire();
connect();
