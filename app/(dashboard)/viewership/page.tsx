import type { Metadata } from "next";
import { ViewershipView } from "@/components/analytics/viewership-view";

export const metadata: Metadata = { title: "Viewership" };

export default function ViewershipPage() {
  return <ViewershipView />;
}
