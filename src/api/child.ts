/**
 * The emulator the test API starts under Node (lib/index.cjs): start() in this Bun process with
 * the options in argv[2], the ready line on stdout, and gone once its parent is. The parent holds
 * our stdin open and never writes; the pipe closes when the parent exits or is killed (SIGKILL
 * included), and its end event stops us: no polling, nothing left behind.
 */
import type { Emulator } from "../../lib/index.d.ts";
import { readyLine } from "../server/configured.ts";
import { start } from "./start.ts";

let emu: Emulator | undefined;
let leaving = false;
const leave = async () => {
  if (leaving) return;
  leaving = true;
  await emu?.stop();
  process.exit(0);
};
// Armed before the start (Bun installs signal handlers asynchronously), as main.ts does.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, leave);
process.stdin.on("end", leave);
process.stdin.on("close", leave);
process.stdin.resume();

try {
  emu = await start(JSON.parse(process.argv[2] ?? "{}"));
} catch (e) {
  process.stderr.write(`pubsub-emulator: ${(e as Error).message}\n`);
  process.exit(2);
}
if (leaving) await leave();
else console.log(readyLine(emu.port));
