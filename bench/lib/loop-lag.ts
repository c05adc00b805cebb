// Preloaded into a server process by bench/h2-attacks.ts (`bun --preload`): how late a 1 ms
// timer fires, i.e. how long the event loop was held by one piece of work. This is the server's
// own share of a bystander's latency, less coloured by what else the host runs than a client's
// round trip. SIGUSR2 prints `loop-lag max M p99 P n N` (ms, since the last SIGUSR2) to stderr and
// starts again.
let lags: number[] = [];
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  lags.push(now - last - 1);
  last = now;
  // Bounded: 5 minutes of samples at most between reports.
  if (lags.length > 300_000) lags = lags.slice(-150_000);
}, 1).unref();
process.on("SIGUSR2", () => {
  const s = lags.sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  process.stderr.write(`loop-lag max ${(s.at(-1) ?? NaN).toFixed(1)} p99 ${at(0.99).toFixed(1)} n ${s.length}\n`);
  lags = [];
});
