import { execFile } from "node:child_process";
import { promisify } from "node:util";

const exec = promisify(execFile);

/**
 * The operator CLI (scripts/cli.ts) run as operators run it, as a child process: against the
 * suite's database, or another app's (`env` with its DATABASE_URL). `stdin` is written to it
 * (passwords never go on the command line).
 */
export function cli(args: string[], opts: { stdin?: string; env?: NodeJS.ProcessEnv } = {}) {
  const run = exec(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { env: opts.env ?? process.env });
  if (opts.stdin !== undefined) run.child.stdin!.end(opts.stdin);
  return run;
}

/** Makes an account an operator's (the admin role), as `cli -- users set-role` does. */
export const makeAdmin = (email: string, env?: NodeJS.ProcessEnv) => cli(["users", "set-role", "--email", email, "--role", "admin"], { env });
