/** Cloud Storage object names: the datetime format's matchers, the separator rule, prefix and suffix. */
import { expect, test } from "bun:test";
import { objectName, parseDatetimeFormat } from "../../src/core/kinds/storage/object-names.ts";

const AT = Date.UTC(2023, 8, 25, 4, 10, 0); // the documentation's 2023-09-25T04:10:00

test("the default reads as the documentation's sample", () => {
  expect(objectName({ filenamePrefix: "prod_", filenameSuffix: "_archive" }, AT, "uNiQuE")).toBe("prod_2023-09-25T04:10:00+00:00_uNiQuE_archive");
  expect(objectName({}, AT, "u")).toBe("2023-09-25T04:10:00+00:00_u");
});

test("a custom format, and a trailing delimiter replacing the separator", () => {
  expect(objectName({ filenamePrefix: "prod_", filenameSuffix: "_archive", filenameDatetimeFormat: "YYYY-MM-DD/hh_mm_ssZ" }, AT, "uNiQuE")).toBe("prod_2023-09-25/04_10_00Z_uNiQuE_archive");
  expect(objectName({ filenamePrefix: "prod_", filenameSuffix: "_archive", filenameDatetimeFormat: "YYYY-MM-DDThh_mm_ss-" }, AT, "uNiQuE")).toBe("prod_2023-09-25T04_10_00-uNiQuE_archive");
  expect(objectName({ filenameDatetimeFormat: "YY/MM/DD/hh:mm:ss" }, AT, "u")).toBe("23/09/25/04:10:00_u");
});

test("invalid formats say why", () => {
  expect(parseDatetimeFormat("YY-YYYY-MM-DD-hh-mm-ss")).toContain("only once");
  expect(parseDatetimeFormat("YYYY-MMM-DD-hh-mm-ss")).toContain("Unexpected \"M-DD");
  expect(parseDatetimeFormat("YYYY-MM-DD hh-mm-ss")).toContain("Unexpected");
  expect(parseDatetimeFormat("YYYY-MM-DD-hh-mm")).toContain("ss is required");
  expect(parseDatetimeFormat("YYYY-MM-DD-hh-mm-ssZ+00:00")).toContain("only once");
  expect(typeof parseDatetimeFormat("hh-mm-ss-DD-MM-YYYY")).toBe("object");
});
