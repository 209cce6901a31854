import { and, eq } from "drizzle-orm";
import { db } from "@/db/client";
import { multistreamTargets } from "@/db/schema";
import { invalid, notFound } from "@/lib/errors";
import { pageOf, type Page } from "@/db/pagination";
import type { PageQuery } from "@/lib/api/list-query";
import { newId } from "@/lib/ids";
import { hostReason } from "@/lib/net/guard";
import { streamsUsingTargets } from "@/lib/streams/service";
import { splitTargetUrl, targetHost } from "./connect";
import type { Target, TargetCreate, TargetPatch } from "./schema";

type TargetRow = typeof multistreamTargets.$inferSelect;

/** The public shape: the host instead of the URL, and the streams that use the target. */
async function serializeTargets(userId: string, rows: TargetRow[]): Promise<Target[]> {
  const using = await streamsUsingTargets(
    userId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    userId: row.userId,
    name: row.name,
    disabled: row.disabled,
    createdAt: row.createdAt,
    host: targetHost(row.url),
    streams: using.get(row.id) ?? [],
  }));
}

/** The host ffmpeg would connect to; the media node checks it again at every connection. */
async function refusePrivateUrl(url: string) {
  const reason = await hostReason(splitTargetUrl(url).host);
  if (reason) throw invalid(`url: ${reason}; multistream targets must reach a public address`);
}

export async function createTarget(userId: string, input: TargetCreate) {
  await refusePrivateUrl(input.url);
  const [row] = await db()
    .insert(multistreamTargets)
    .values({
      id: newId(),
      userId,
      name: input.name ?? new URL(input.url).host,
      url: input.url,
      disabled: input.disabled ?? false,
      createdAt: Date.now(),
    })
    .returning();
  const [target] = await serializeTargets(userId, [row]);
  return { ...target, url: row.url };
}

export async function listTargets(userId: string, page: PageQuery): Promise<Page<Target>> {
  const rows = await pageOf(multistreamTargets, eq(multistreamTargets.userId, userId), page, (row) => row);
  return { ...rows, items: await serializeTargets(userId, rows.items) };
}

const owned = (userId: string, id: string) => and(eq(multistreamTargets.id, id), eq(multistreamTargets.userId, userId));

export async function getTarget(userId: string, id: string): Promise<Target> {
  const row = await db().query.multistreamTargets.findFirst({ where: owned(userId, id) });
  if (!row) throw notFound("multistream target");
  const [target] = await serializeTargets(userId, [row]);
  return target;
}

export async function updateTarget(userId: string, id: string, patch: TargetPatch) {
  if (patch.url !== undefined) await refusePrivateUrl(patch.url);
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const query = Object.keys(changes).length
    ? db().update(multistreamTargets).set(changes).where(owned(userId, id)).returning({ id: multistreamTargets.id })
    : db().select({ id: multistreamTargets.id }).from(multistreamTargets).where(owned(userId, id));
  if (!(await query).length) throw notFound("multistream target");
}

export async function deleteTarget(userId: string, id: string) {
  const { streams: users } = await getTarget(userId, id);
  if (users.length) {
    const names = users.map((s) => `"${s.name}" (${s.id})`).join(", ");
    throw invalid(`multistream target is still used by stream ${names}: remove it from their multistream.targets first`);
  }
  await db().delete(multistreamTargets).where(owned(userId, id));
}
