import type { Metadata } from "next";
import { BroadcastDetail } from "@/components/broadcasts/broadcast-detail";

export const metadata: Metadata = { title: "Broadcast" };

export default async function BroadcastPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <BroadcastDetail id={id} />;
}
