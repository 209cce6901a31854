import { exitWithLauncherWhileStarting, serveLauncher } from "./children";
import { closeDb } from "@/db/client";
import { usePrivateDataDir } from "@/lib/data-dir";
import { dropOutputWithoutReader } from "@/lib/process-output";
import { setupDatabase } from "@/db/setup";
import { startBackgroundWork } from "@/inngest/start";

/**
 * `npm run worker`: the built-in job driver alone, against the same database as
 * the app. `npm start` runs JOB_WORKERS of these as child processes (scripts/children.ts).
 */
async function main() {
  exitWithLauncherWhileStarting();
  dropOutputWithoutReader();
  usePrivateDataDir();
  const stopDatabase = await setupDatabase();
  const driver = await startBackgroundWork();
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await driver?.stop();
    await closeDb();
    await stopDatabase();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
  if (process.send) {
    // Started by the launcher: live and die with it.
    serveLauncher({}, shutdown);
  } else {
    console.log("worker running the background functions");
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
