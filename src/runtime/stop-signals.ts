/**
 * The signals that stop the emulator cleanly. POSIX: SIGINT (Ctrl+C) and SIGTERM (docker stop,
 * Testcontainers, kill). Windows has no SIGTERM: Ctrl+C arrives as SIGINT, Ctrl+Break as
 * SIGBREAK, and closing the console window as SIGHUP (Windows then ends the process within a few
 * seconds, whatever it does); `taskkill /F` and TerminateProcess run no handler, like SIGKILL.
 */
export function stopSignals(platform: NodeJS.Platform = process.platform): NodeJS.Signals[] {
  return platform === "win32" ? ["SIGINT", "SIGBREAK", "SIGHUP"] : ["SIGINT", "SIGTERM"];
}
