import { cx } from "@/components/ui/cx";
import { percent } from "./asset-info";

type Tone = "indigo" | "green" | "amber" | "red";

const fills: Record<Tone, string> = {
  indigo: "bg-indigo-500",
  green: "bg-emerald-500",
  amber: "bg-amber-400",
  red: "bg-red-500",
};

/**
 * A thin bar for a fraction done (0..1). Without a value it is indeterminate: work has
 * started but says nothing about how far it is. `decorative` hides it from assistive
 * technology where the same number is already written next to it.
 */
export function ProgressBar({
  value,
  label,
  tone = "indigo",
  decorative,
  className,
}: {
  value?: number;
  label?: string;
  tone?: Tone;
  decorative?: boolean;
  className?: string;
}) {
  const known = value !== undefined;
  return (
    <div
      role={decorative ? undefined : "progressbar"}
      aria-hidden={decorative || undefined}
      aria-label={decorative ? undefined : label}
      aria-valuemin={decorative ? undefined : 0}
      aria-valuemax={decorative ? undefined : 100}
      aria-valuenow={decorative || !known ? undefined : percent(value)}
      data-tone={tone}
      className={cx("h-1.5 w-full overflow-hidden rounded-full bg-zinc-200/80", className)}
    >
      {known ? (
        <div className={cx("h-full rounded-full transition-[width] duration-500 ease-out", fills[tone])} style={{ width: `${percent(value)}%` }} />
      ) : (
        <div className={cx("h-full w-full animate-pulse rounded-full opacity-40", fills[tone])} />
      )}
    </div>
  );
}
