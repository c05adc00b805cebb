/**
 * avsc, loaded with the first Avro use and never at start: loading it costs ≈ 17 MB of RSS, a
 * third of an idle server's. A literal require, so the compiled binary bundles it.
 */
import type avro from "avsc";

let mod: typeof avro | undefined;
export const avsc = (): typeof avro => (mod ??= require("avsc") as typeof avro);
