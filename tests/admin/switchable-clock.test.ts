/** The server's switchable clock: manual and system modes, and timers that survive a switch. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/runtime/config.ts";
import { SwitchableClock } from "../../src/runtime/switchable-clock.ts";
import { waitFor } from "../helpers/wait.ts";

describe("SwitchableClock", () => {
  test("in manual mode time moves only by advance/set, firing due timers in order", () => {
    let wall = 1_000_000;
    const clock = new SwitchableClock("manual", () => wall);
    const fired: string[] = [];
    clock.schedule(wall + 300, () => fired.push("c"));
    clock.schedule(wall + 100, () => fired.push("a"));
    const b = clock.schedule(wall + 200, () => fired.push("b"));
    clock.cancel(b);
    wall += 10_000; // the wall clock moving changes nothing
    expect(clock.now()).toBe(1_000_000);
    expect(clock.advance(150)).toBe(1);
    expect(fired).toEqual(["a"]);
    expect(clock.set(1_000_300)).toBe(1);
    expect(fired).toEqual(["a", "c"]);
    expect(clock.now()).toBe(1_000_300);
    expect(() => clock.advance(-1)).toThrow(/forward/);
  });

  test("a timer that throws is logged and stops neither the timers after it nor the real timer", async () => {
    const manual = new SwitchableClock("manual", () => 0);
    const fired: number[] = [];
    manual.schedule(10, () => {
      throw new Error("the disk refused a write");
    });
    manual.schedule(20, () => fired.push(20));
    expect(manual.advance(30)).toBe(2);
    expect(fired).toEqual([20]);

    const system = new SwitchableClock("system", () => performance.now());
    const later = new Promise<number>((resolve) => {
      system.schedule(system.now() + 5, () => {
        throw new Error("the disk refused a write");
      });
      // Fires in a later round of the real timer, which the throw must not have left unarmed.
      system.schedule(system.now() + 40, () => resolve(system.now()));
    });
    const at = await Promise.race([later, Bun.sleep(2000).then(() => -1)]);
    expect(at).toBeGreaterThan(0);
  });

  test("a timer scheduled during an advance that falls due within it fires in the same advance", () => {
    const clock = new SwitchableClock("manual", () => 0);
    const fired: number[] = [];
    clock.schedule(10, () => {
      fired.push(clock.now());
      clock.schedule(clock.now() + 10, () => fired.push(clock.now()));
    });
    clock.advance(25);
    expect(fired).toEqual([10, 20]);
    expect(clock.now()).toBe(25);
  });

  test("switching keeps the current instant: time never goes back", () => {
    let wall = 5_000;
    const clock = new SwitchableClock("system", () => wall);
    clock.setMode("manual");
    clock.advance(60_000);
    expect(clock.now()).toBe(65_000);
    clock.setMode("system");
    expect(clock.now()).toBe(65_000);
    wall += 1_000;
    expect(clock.now()).toBe(66_000);
    clock.setMode("manual");
    wall += 1_000;
    expect(clock.now()).toBe(66_000);
  });

  test("timers scheduled in manual mode fire on the real clock after a switch to system", async () => {
    const clock = new SwitchableClock("manual");
    let fired = 0;
    clock.schedule(clock.now() + 20, () => fired++);
    await Bun.sleep(40);
    expect(fired).toBe(0);
    clock.setMode("system");
    await waitFor(() => fired > 0, 2000, "the timer to fire");
    expect(fired).toBe(1);
  });

  test("timers scheduled in system mode wait for advance after a switch to manual", async () => {
    const clock = new SwitchableClock("system");
    let fired = 0;
    clock.schedule(clock.now() + 30, () => fired++);
    clock.setMode("manual");
    await Bun.sleep(60);
    expect(fired).toBe(0);
    clock.advance(30);
    expect(fired).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });

  test("advance in system mode jumps ahead and fires what fell due at once", () => {
    const clock = new SwitchableClock("system");
    let fired = 0;
    clock.schedule(clock.now() + 60_000, () => fired++);
    clock.advance(60_000);
    expect(fired).toBe(1);
  });
});

describe("--clock and --message-history", () => {
  test("flags and env vars set them; a bad value names the flag", () => {
    expect(loadConfig(["--clock", "manual"], {}).clock).toBe("manual");
    expect(loadConfig([], { PUBSUB_CLOCK: "manual" }).clock).toBe("manual");
    expect(loadConfig([], {}).clock).toBe("system");
    expect(() => loadConfig(["--clock=fast"], {})).toThrow(/--clock/);
    expect(loadConfig(["--message-history", "500"], {}).messageHistory).toBe(500);
    expect(() => loadConfig([], { PUBSUB_MESSAGE_HISTORY: "-1" })).toThrow(/--message-history/);
  });
});
