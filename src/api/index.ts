/** The package's entry under Bun ("bun" export condition): the emulator in the calling process. */
import "./preload.ts";
export { start } from "./start.ts";
export { EmulatorError } from "./errors.ts";
export type * from "../../lib/index.d.ts";
