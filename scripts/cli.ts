import { parseArgs } from "node:util";
import { usePrivateDataDir } from "@/lib/data-dir";
import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { createApiKey } from "@/lib/api-keys/service";
import { Email, Password } from "@/lib/users/schema";
import { createUser, findUserByEmail, setPassword } from "@/lib/users/service";

const USAGE = `Castline operator CLI

  npm run --silent cli -- users create --email E [--password-stdin] [--name N]
                                          (--password-stdin: the password is read from stdin,
                                           never from the command line, where \`ps\` shows it)
  npm run --silent cli -- keys create --email E [--name N]     (creates the user if missing;
                                                               prints the key alone on the last line)`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function parseOrFail<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, value: unknown, what: string): T {
  const result = schema.safeParse(value);
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
    options: { email: { type: "string" }, "password-stdin": { type: "boolean" }, name: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const command = positionals.join(" ");
  if (values.help || !["users create", "keys create"].includes(command)) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  if (!values.email) fail("--email is required");
  const email = parseOrFail(Email, values.email, "--email");
  const password = values["password-stdin"] ? parseOrFail(Password, await readStdin(), "the password on stdin") : undefined;

  usePrivateDataDir();
  const stopDatabase = await setupDatabase();
  try {
    if (command === "users create") {
      const { user, created } = await findOrCreateUser(email, password, values.name);
      console.log(created ? `created user ${user.email} (${user.id})` : `user ${user.email} exists (${user.id})${password ? "; password updated" : ""}`);
    } else {
      const { user, created } = await findOrCreateUser(email, password);
      if (created) console.log(`created user ${user.email} (${user.id})`);
      const key = await createApiKey(user.id, values.name ?? "CLI key");
      console.log(`API key "${key.name}" for ${user.email} (shown once):`);
      console.log(key.key);
    }
  } finally {
    await closeDb();
    await stopDatabase();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
