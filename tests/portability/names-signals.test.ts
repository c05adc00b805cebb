/**
 * What the code does on a platform it cannot run on here, checked through the same functions the
 * server calls, with the platform given: file names Windows can hold, its stop signals, and where
 * the compiled binary finds its checkpoint worker on each system.
 */
import { describe, expect, test } from "bun:test";
import { fileName, needsEscape } from "../../src/runtime/file-names.ts";
import { stopSignals } from "../../src/runtime/stop-signals.ts";
import { decodePath, objectPath } from "../../src/sinks/storage/targets.ts";
import { objectName } from "../../src/core/kinds/storage/object-names.ts";
import { workerEntry } from "../../src/persistence/checkpointer.ts";

const WINDOWS_FORBIDDEN = /[<>:"\\|?*\x00-\x1f]/;
const DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\.|$)/i;
const windowsCanHold = (seg: string) => !WINDOWS_FORBIDDEN.test(seg) && !/[. ]$/.test(seg) && !DEVICE.test(seg) && seg !== "";

describe("Cloud Storage object names on Windows", () => {
  const name = objectName({ filenamePrefix: "logs/", filenameSuffix: ".avro" }, Date.UTC(2023, 8, 25, 4, 10, 0), "0f3a");

  test("the default RFC 3339 time's colons are percent-encoded there, and the name reads back", () => {
    expect(name).toBe("logs/2023-09-25T04:10:00+00:00_0f3a.avro");
    const path = objectPath(name, "win32");
    expect(path).toBe("logs/2023-09-25T04%3A10%3A00+00%3A00_0f3a.avro");
    expect(path.split("/").every(windowsCanHold)).toBe(true);
    expect(decodePath(path.replaceAll("/", "\\"), "win32")).toBe(name);
  });

  test("on Linux and macOS the same name is kept as it is", () => {
    expect(objectPath(name, "linux")).toBe(name);
    expect(objectPath(name, "darwin")).toBe(name);
    expect(decodePath(name, "linux")).toBe(name);
  });

  test("every character and name Windows refuses, round-tripped", () => {
    const hostile = ['a<b>c', 'q"uote', "back\\slash", "pipe|", "what?", "star*", "tab\there", "dot.", "space ", "CON", "nul.txt", "com1", "LPT9.log", "100%", "a*%b", "", ".", "..", "x\0y"];
    for (const seg of hostile) {
      const path = objectPath(`dir/${seg}`, "win32");
      const [, stored] = path.split("/");
      expect(windowsCanHold(stored!)).toBe(true);
      expect(decodePath(path, "win32")).toBe(`dir/${seg}`);
    }
  });

  test("a name Windows can hold is untouched; nothing is escaped off Windows", () => {
    expect(needsEscape("orders-2023-09-25_0f3a.json", "win32")).toBe(false);
    expect(fileName("example.com:proj", "win32")).toBe("example.com%3Aproj");
    expect(fileName("example.com:proj", "linux")).toBe("example.com:proj");
    expect(fileName("CONSOLE", "win32")).toBe("CONSOLE");
  });
});

test("stop signals: SIGINT and SIGTERM on POSIX; SIGINT, SIGBREAK and SIGHUP on Windows (no SIGTERM there)", () => {
  expect(stopSignals("linux")).toEqual(["SIGINT", "SIGTERM"]);
  expect(stopSignals("darwin")).toEqual(["SIGINT", "SIGTERM"]);
  expect(stopSignals("win32")).toEqual(["SIGINT", "SIGBREAK", "SIGHUP"]);
});

describe("the checkpoint worker's entry", () => {
  test("from source: the .ts beside the checkpointer", () => {
    const e = workerEntry("file:///repo/src/persistence/checkpointer.ts");
    expect(String(e)).toBe("file:///repo/src/persistence/checkpoint-worker.ts");
  });
  test("compiled for Linux or macOS: under /$bunfs/root", () => {
    expect(workerEntry("file:///$bunfs/root/chunk-x1.js")).toBe("/$bunfs/root/persistence/checkpoint-worker.js");
  });
  test("compiled for Windows: under B:\\~BUN\\root, with ~ spelt plainly or as %7E", () => {
    expect(workerEntry("file:///B:/~BUN/root/chunk-x1.js")).toBe("B:\\~BUN\\root\\persistence\\checkpoint-worker.js");
    expect(workerEntry("file:///B:/%7EBUN/root/chunk-x1.js")).toBe("B:\\~BUN\\root\\persistence\\checkpoint-worker.js");
  });
});
