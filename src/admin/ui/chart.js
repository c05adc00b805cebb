// The rates chart: publish, deliver and ack per second from consecutive snapshots' totals,
// drawn on a canvas (no charting library: the page must work offline).
import { $, el, fmt } from "./dom.js";

export const WINDOW = 120; // chart points (seconds)
export const SERIES = [
  ["published", "publish", "--pub"],
  ["delivered", "deliver", "--del"],
  ["acked", "ack", "--ack"],
];

function rates(s) {
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

/** Draws the last WINDOW samples of `{t, published, delivered, acked}` and the legend. */
export function drawChart(samples, totals) {
  const canvas = $("#chart");
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== w * dpr) (canvas.width = w * dpr), (canvas.height = h * dpr);
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  const data = rates(samples);
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
  SERIES.forEach(([key], j) => ($(`#rate-${key}`).textContent = `${last[j].toFixed(1)}/s · ${fmt(totals[key])}`));
}
