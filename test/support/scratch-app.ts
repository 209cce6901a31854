import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startAppProcess, type AppProcess } from "../../scripts/app-process";
import { createScratchDatabase } from "./database";

/** An app of a test's own, with where it keeps its files and its database (a test may look, or break them). */
export interface ScratchApp extends AppProcess {
  dataDir: string;
  databaseUrl: string;
}

/**
 * An app of a test's own, beside the suite's: a scratch database on the suite's server, its own
 * DATA_DIR, loopback only, no media node. `env` adds or overrides settings; `stop()` also removes
 * its data.
 */
export async function startScratchApp(env: Record<string, string> = {}): Promise<ScratchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "castline-scratch-app-"));
  const databaseUrl = await createScratchDatabase();
  const app = await startAppProcess({
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    MEDIA_NODE: "false",
    ...env,
  });
  return {
    ...app,
    dataDir,
    databaseUrl,
    stop: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
