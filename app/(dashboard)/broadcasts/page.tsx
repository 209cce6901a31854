import type { Metadata } from "next";
import { BroadcastsView } from "@/components/broadcasts/broadcasts-view";

export const metadata: Metadata = { title: "Broadcasts" };

export default function BroadcastsPage() {
  return <BroadcastsView />;
}
