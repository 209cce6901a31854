import { closeDb } from "@/db/client";
import { setupDatabase } from "@/db/setup";
import { startBackgroundWork } from "@/lib/jobs/start";

/** `npm run worker`: the built-in job driver alone, against the same database as the app. */
async function main() {
  const stopDatabase = await setupDatabase();
  const driver = await startBackgroundWork();
  console.log("worker running the background functions");
  const shutdown = async () => {
    await driver?.stop();
    await closeDb();
    await stopDatabase();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
