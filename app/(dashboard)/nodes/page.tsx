import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NodesView } from "@/components/nodes/nodes-view";
import { auth } from "@/lib/auth";

export const metadata: Metadata = { title: "Media nodes" };

/** Operators only (the admin role); to others the page does not exist, as the sidebar shows. */
export default async function NodesPage() {
  if ((await auth())?.user?.role !== "admin") notFound();
  return <NodesView />;
}
