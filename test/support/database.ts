import { randomUUID } from "node:crypto";
import postgres from "postgres";

/** A new, empty database on the same server as DATABASE_URL, for a second app that must not share state. */
export async function createScratchDatabase(): Promise<string> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `castline_scratch_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(base.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  base.pathname = `/${name}`;
  return base.toString();
}
