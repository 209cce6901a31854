import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { spawnTied } from "@/lib/tied-process";

/**
 * The embedded PostgreSQL server process of one data directory, owned by the Castline process
 * that started it (the launcher, or a CLI run with no app):
 * - it dies with its owner, even a kill -9 of it (the kernel sends it SIGINT, a fast clean
 *   shutdown: lib/tied-process.ts);
 * - it is started again when it dies under a living owner, on the same port, so every process
 *   holding DATABASE_URL reconnects without a restart;
 * - the owner is recorded beside the data (pid and start time, so a reused pid is not taken for
 *   it): a server found running whose owner is gone is stale, stopped rather than adopted.
 */
const OWNER_FILE = "pg-owner.json";
const RESTART_DELAYS_MS = [250, 500, 1000, 2000, 5000];

export interface ServerProcess {
  /** Stops the server (and its restarts) and forgets the ownership. */
  stop(): Promise<void>;
}

interface Owner {
  pid: number;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat), or 0 where unknown. */
  started: number;
}

function startTicks(pid: number): number {
  try {
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ")".
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]) || 0;
  } catch {
    return 0;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** The pid and port of the server running on `pgDir`, from its postmaster.pid, if that process lives. */
export function runningServer(pgDir: string): { pid: number; port: number } | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(pgDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return undefined;
  }
  const [pid, port] = [Number(lines[0]), Number(lines[3])];
  return pid > 0 && port > 0 && alive(pid) ? { pid, port } : undefined;
}

/** Whether the Castline process recorded as the server's owner still runs. */
export function ownerAlive(dataDir: string): boolean {
  let owner: Owner;
  try {
    owner = JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_FILE), "utf8"));
  } catch {
    return false;
  }
  return alive(owner.pid) && (!owner.started || startTicks(owner.pid) === owner.started);
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** Stops a server left running by an owner that is gone: fast shutdown, then harder. */
export async function stopStaleServer(pid: number): Promise<void> {
  console.error(`The embedded PostgreSQL (pid ${pid}) was left running by a Castline process that is gone: stopping it.`);
  for (const [signal, ms] of [
    ["SIGINT", 30_000],
    ["SIGQUIT", 10_000],
    ["SIGKILL", 10_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    if (await waitForExit(pid, ms)) return;
  }
  throw new Error(`could not stop the stale embedded PostgreSQL (pid ${pid})`);
}

function spawnServer(postgresBin: string, pgDir: string, port: number): Promise<ChildProcess> {
  // As root the server runs as the owner of its data directory (PostgreSQL insists on that).
  const { uid, gid } = fs.statSync(pgDir);
  const asOwner = process.getuid?.() === 0 ? { uid, gid } : {};
  // TCP on loopback only, no Unix socket: its lock file (/tmp/.s.PGSQL.<port>.lock) is shared by
  // every network namespace, so a server started in another one (the WebRTC tests') on a port
  // free there refused to start when this machine's server had that port.
  const child = spawnTied(
    postgresBin,
    ["-D", pgDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    { ...asOwner, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } },
    "SIGINT",
  );
  return new Promise((resolve, reject) => {
    let log = "";
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
      if (!log.includes("database system is ready to accept connections")) return;
      child.off("exit", onExit);
      // Keep draining stderr: a full pipe would block the server.
      child.stderr!.off("data", onData).resume();
      resolve(child);
    };
    const onExit = (code: number | null, signal: string | null) => reject(new Error(`PostgreSQL exited while starting (${signal ?? code}):\n${log.trim()}`));
    child.stderr!.on("data", onData);
    child.once("exit", onExit);
  });
}

/** Starts the server on `port` and keeps it running while this process lives and owns it. */
export async function startServer(postgresBin: string, dataDir: string, pgDir: string, port: number): Promise<ServerProcess> {
  let stopping = false;
  let current = await spawnServer(postgresBin, pgDir, port);
  fs.writeFileSync(path.join(dataDir, OWNER_FILE), JSON.stringify({ pid: process.pid, started: startTicks(process.pid) } satisfies Owner), { mode: 0o600 });

  const restart = async () => {
    for (let attempt = 0; !stopping; attempt++) {
      await new Promise((r) => setTimeout(r, RESTART_DELAYS_MS[Math.min(attempt, RESTART_DELAYS_MS.length - 1)]));
      if (stopping) return;
      try {
        current = await spawnServer(postgresBin, pgDir, port);
        console.error("The embedded PostgreSQL is running again.");
        return watch(current);
      } catch (err) {
        // e.g. the old server's backends still hold its shared memory for a moment
        console.error(`Restarting the embedded PostgreSQL failed, trying again: ${(err as Error).message.split("\n").slice(-1)[0]}`);
      }
    }
  };
  const watch = (child: ChildProcess) =>
    child.once("exit", (code, signal) => {
      if (stopping) return;
      console.error(`The embedded PostgreSQL exited (${signal ?? code}): starting it again.`);
      void restart();
    });
  watch(current);

  return {
    async stop() {
      stopping = true;
      if (current.exitCode === null && current.signalCode === null) {
        await new Promise((resolve) => {
          current.once("exit", resolve);
          current.kill("SIGINT");
        });
      }
      fs.rmSync(path.join(dataDir, OWNER_FILE), { force: true });
    },
  };
}
