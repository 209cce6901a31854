import { parseArgs } from "node:util";
import type { z } from "zod";
import { usePrivateDataDir } from "@/lib/data-dir";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { createApiKey } from "@/lib/api-keys/service";
import { listNodes } from "@/lib/live/nodes";
import { Email, Password, Role } from "@/lib/users/schema";
import { createUser, endAllSessions, findUserByEmail, setPassword, setRole } from "@/lib/users/service";

const USAGE = `Castline operator CLI

  npm run --silent cli -- users create --email E [--password-stdin] [--name N]
                                          (--password-stdin: the password is read from stdin,
                                           never from the command line, where \`ps\` shows it;
                                           for an existing account it replaces the password
                                           and ends its dashboard sessions)
  npm run --silent cli -- users set-role --email E --role admin|user
                                          (admin: an operator, who also sees the media nodes)
  npm run --silent cli -- users sign-out --email E   (ends every dashboard session of the account)
  npm run --silent cli -- keys create --email E [--name N]     (creates the user if missing;
                                                               prints the key alone on the last line)
  npm run --silent cli -- nodes list                           (media nodes: health, load, live sessions)`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function parseOrFail<T>(schema: z.ZodType<T>, value: unknown, what: string): Promise<T> {
  const result = await schema.safeParseAsync(value);
  if (!result.success) fail(`${what}: ${result.error.issues[0].message}`);
  return result.data;
}

async function findOrCreateUser(email: string, password?: string, name?: string) {
  const existing = await findUserByEmail(email);
  if (existing) {
    if (password) await setPassword(existing.id, password);
    return { user: existing, created: false };
  }
  return { user: await createUser({ email, password, name }), created: true };
}

async function readStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text.replace(/\r?\n$/, "");
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      "password-stdin": { type: "boolean" },
      name: { type: "string" },
      role: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals.join(" ");
  if (values.help || !["users create", "users set-role", "users sign-out", "keys create", "nodes list"].includes(command)) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  if (command === "nodes list") return withDatabase(printNodes);
  if (!values.email) fail("--email is required");
  const email = await parseOrFail(Email, values.email, "--email");
  if (command === "users set-role" || command === "users sign-out") {
    const role = command === "users set-role" ? await parseOrFail(Role, values.role, "--role") : undefined;
    return withDatabase(async () => {
      const user = await findUserByEmail(email);
      if (!user) throw new Error(`no account has the email ${email}`);
      if (role) await setRole(user.id, role);
      else await endAllSessions(user.id);
      console.log(role ? `user ${user.email} now has the role ${role}` : `ended every dashboard session of ${user.email}`);
    });
  }
  const password = values["password-stdin"] ? await parseOrFail(Password, await readStdin(), "the password on stdin") : undefined;

  await withDatabase(async () => {
    if (command === "users create") {
      const { user, created } = await findOrCreateUser(email, password, values.name);
      console.log(
        created
          ? `created user ${user.email} (${user.id})`
          : `user ${user.email} exists (${user.id})${password ? "; password updated, its dashboard sessions ended" : ""}`,
      );
    } else {
      const { user, created } = await findOrCreateUser(email, password);
      if (created) console.log(`created user ${user.email} (${user.id})`);
      const key = await createApiKey(user.id, { name: values.name ?? "CLI key" });
      console.log(`API key "${key.name}" for ${user.email} (shown once):`);
      console.log(key.key);
    }
  });
}

async function withDatabase(fn: () => Promise<void>) {
  usePrivateDataDir();
  const stopDatabase = await setupDatabase();
  try {
    await fn();
  } finally {
    await closeDb();
    await stopDatabase();
  }
}

async function printNodes() {
  const nodes = await listNodes();
  if (!nodes.length) return console.log("no media node has registered");
  const ago = (ms: number) => `${((Date.now() - ms) / 1000).toFixed(1)} s ago`;
  const rows = nodes.map((n) => [
    n.id,
    n.state,
    n.ingestUrl ?? `(app host):${n.rtmpPort}`,
    `${n.liveSessions}${n.laggingSessions ? ` (${n.laggingSessions} behind)` : ""}`,
    `${Math.round(n.cpuLoad * 100)}% of ${n.cores}`,
    ago(n.lastHeartbeatAt),
  ]);
  const header = ["NODE", "STATE", "INGEST", "LIVE", "CPU", "LAST HEARTBEAT"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows])
    console.log(
      row
        .map((c, i) => c.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
