/**
 * The command line's first words: `pubsub-emulator [start|env-init|healthcheck|help|version]`, or
 * gcloud's `gcloud beta emulators pubsub start|env-init …` as Testcontainers and compose files
 * pass it. gcloud-only flags that mean nothing here are dropped with a warning.
 */
export type Verb = "start" | "env-init" | "healthcheck" | "help" | "version";

export interface Command {
  verb: Verb;
  /** The flags left for loadConfig. */
  args: string[];
  /** What was ignored, for the log once the level is known. */
  warnings: string[];
  /** Invoked with gcloud's words. */
  gcloud: boolean;
}

const VERBS: ReadonlySet<string> = new Set(["start", "env-init", "healthcheck", "help", "version"]);
const GCLOUD_VERBS: ReadonlySet<string> = new Set(["start", "env-init"]);

/** gcloud flags accepted and ignored: true when the flag takes a value. */
const GCLOUD_IGNORED = new Map<string, boolean>([
  ["--account", true],
  ["--billing-project", true],
  ["--configuration", true],
  ["--flags-file", true],
  ["--flatten", true],
  ["--format", true],
  ["--impersonate-service-account", true],
  ["--access-token-file", true],
  ["--trace-token", true],
  ["--universe-domain", true],
  ["--log-http", false],
  ["--no-log-http", false],
  ["--user-output-enabled", false],
  ["--no-user-output-enabled", false],
  ["--quiet", false],
  ["-q", false],
]);

export class UsageError extends Error {}

export function parseCommand(argv: readonly string[]): Command {
  let rest = [...argv];
  let gcloud = false;
  if (rest[0] === "gcloud") {
    gcloud = true;
    rest.shift();
  }
  if (rest[0] === "beta" || rest[0] === "alpha") {
    gcloud = true;
    rest.shift();
  }
  if (rest[0] === "emulators" && rest[1] === "pubsub") {
    gcloud = true;
    rest = rest.slice(2);
  } else if (gcloud) {
    throw new UsageError(`only "gcloud beta emulators pubsub start|env-init" is understood (got "${argv.join(" ").slice(0, 200)}")`);
  }

  let verb: Verb = "start";
  if (rest.length && !rest[0].startsWith("-")) {
    const word = rest.shift()!;
    if (!VERBS.has(word) || (gcloud && !GCLOUD_VERBS.has(word))) {
      const known = gcloud ? "start, env-init" : "start, env-init, healthcheck, help, version";
      throw new UsageError(`unknown command "${word.slice(0, 100)}" (known: ${known})`);
    }
    verb = word as Verb;
  }
  if (rest.includes("--help") || rest.includes("-h")) verb = "help";
  else if (rest.includes("--version")) verb = "version";

  const warnings: string[] = [];
  const args = gcloud ? dropIgnored(rest, warnings) : rest;
  return { verb, args, warnings, gcloud };
}

function dropIgnored(args: string[], warnings: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const takesValue = GCLOUD_IGNORED.get(flag);
    if (takesValue === undefined) {
      kept.push(arg);
      continue;
    }
    if (takesValue && eq < 0) i++;
    warnings.push(`ignoring gcloud flag ${flag}: it means nothing to this emulator`);
  }
  return kept;
}
