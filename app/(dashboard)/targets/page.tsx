import type { Metadata } from "next";
import { TargetsView } from "@/components/targets/targets-view";

export const metadata: Metadata = { title: "Multistream targets" };

export default function TargetsPage() {
  return <TargetsView />;
}
