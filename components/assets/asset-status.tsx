import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import { ClockIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import type { Asset } from "@/lib/assets/schema";
import { percent } from "./asset-info";

type Tone = "neutral" | "indigo" | "green" | "amber" | "red";

const PHASE_TONES: Record<Asset["status"]["phase"], Tone> = {
  waiting: "neutral",
  uploading: "indigo",
  processing: "indigo",
  ready: "green",
  failed: "red",
  deleted: "neutral",
};

/**
 * An asset's phase as a badge, with the percentage while it moves. The text is the
 * phase as the API spells it (capitalised only on screen), so tests and people
 * reading the API see the same word.
 */
export function AssetStatusBadge({ status, testId }: { status: Asset["status"]; testId?: string }) {
  const { phase, progress } = status;
  const moving = phase === "uploading" || phase === "processing";
  return (
    <Badge tone={PHASE_TONES[phase]} className="shrink-0 whitespace-nowrap capitalize">
      {moving ? (
        <Spinner className="size-3" />
      ) : phase === "waiting" ? (
        <ClockIcon className="size-3" />
      ) : (
        <span className={cx("size-1.5 rounded-full", DOTS[phase])} aria-hidden="true" />
      )}
      <span data-testid={testId} className="tabular-nums">
        {moving && progress !== undefined ? `${phase} ${percent(progress)}%` : phase}
      </span>
    </Badge>
  );
}

const DOTS: Partial<Record<Asset["status"]["phase"], string>> = {
  ready: "bg-emerald-500",
  failed: "bg-red-500",
  deleted: "bg-zinc-400",
};
