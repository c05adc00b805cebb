/**
 * One folder or file name made from a client's string, as the platform's file system can hold it.
 * Windows forbids `< > : " / \ | ? *` and control characters in a name, a name ending in `.` or a
 * space, and the device names (CON, PRN, AUX, NUL, COM1–9, LPT1–9, with any extension); there each
 * such character is percent-encoded (`%3A` for `:`), and so is `%` itself, so that decoding the
 * name (decodeURIComponent) gives the string back. Elsewhere only `/` and NUL are forbidden, and
 * callers keep their own rules for those.
 */

const WINDOWS_FORBIDDEN = /[<>:"/\\|?*%\x00-\x1f]/g;
const DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\.|$)/i;

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

/** True when `name` cannot be a file or folder name on `platform` as it is. */
export function needsEscape(name: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== "win32") return false;
  WINDOWS_FORBIDDEN.lastIndex = 0;
  return WINDOWS_FORBIDDEN.test(name) || /[. ]$/.test(name) || DEVICE.test(name);
}

/** `name` as one Windows file name (see the module comment); unchanged where nothing needs it. */
export function windowsFileName(name: string): string {
  let out = name.replace(WINDOWS_FORBIDDEN, hex);
  if (DEVICE.test(out)) out = hex(out[0]!) + out.slice(1);
  if (/[. ]$/.test(out)) out = out.slice(0, -1) + hex(out[out.length - 1]!);
  return out;
}

/** `name` as a file name on `platform`: escaped on Windows when it must be, else as it is. */
export const fileName = (name: string, platform: NodeJS.Platform = process.platform): string =>
  needsEscape(name, platform) ? windowsFileName(name) : name;
