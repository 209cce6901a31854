import type { Metadata } from "next";
import { AccessControlView } from "@/components/access-control/access-control-view";

export const metadata: Metadata = { title: "Access control" };

export default function AccessControlPage() {
  return <AccessControlView />;
}
