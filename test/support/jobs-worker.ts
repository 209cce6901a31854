import { startJobDriver } from "@/lib/jobs/driver";
import { workerFunctions } from "./job-functions";

/**
 * A separate app process running the built-in job driver over the test database:
 * `node --import tsx test/support/jobs-worker.ts <suffix> [leaseMs]`. Prints "ready"
 * once it is claiming runs and stops cleanly on SIGTERM.
 */
async function main() {
  const [suffix, leaseMs] = process.argv.slice(2);
  const { client, functions } = workerFunctions(suffix);
  const driver = await startJobDriver({ client, functions, leaseMs: leaseMs ? Number(leaseMs) : undefined });
  console.log("ready");
  process.on("SIGTERM", () => void driver.stop().then(() => process.exit(0)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
