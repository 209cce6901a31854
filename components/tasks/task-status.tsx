import { ProgressBar } from "@/components/assets/progress-bar";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import { ClockIcon, CubeIcon, DownloadIcon, FilmIcon, LayersIcon, SendIcon, UploadIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { percent } from "@/components/assets/asset-info";
import type { ReactNode } from "react";
import type { Task } from "@/lib/tasks/schema";
import { describeTask, type TaskKind } from "./task-info";

type Phase = Task["status"]["phase"];

const TONES: Record<Phase, "neutral" | "indigo" | "green" | "red"> = {
  pending: "neutral",
  waiting: "neutral",
  running: "indigo",
  completed: "green",
  failed: "red",
  cancelled: "neutral",
};

const DOTS: Partial<Record<Phase, string>> = {
  completed: "bg-emerald-500",
  failed: "bg-red-500",
  cancelled: "bg-zinc-400",
};

/** A task's phase as the API spells it (capitalised on screen only), with its percentage while it runs. */
export function TaskPhaseBadge({ status }: { status: Task["status"] }) {
  const { phase, progress } = status;
  return (
    <Badge tone={TONES[phase]} className="shrink-0 whitespace-nowrap capitalize">
      {phase === "running" ? (
        <Spinner className="size-3" />
      ) : phase === "pending" || phase === "waiting" ? (
        <ClockIcon className="size-3" />
      ) : (
        <span className={cx("size-1.5 rounded-full", DOTS[phase])} aria-hidden="true" />
      )}
      <span className="tabular-nums">{phase === "running" && progress !== undefined ? `${phase} ${percent(progress)}%` : phase}</span>
    </Badge>
  );
}

/** How far a running task is; waiting and ended ones say it with their badge alone. */
export function TaskProgress({ task, className }: { task: Task; className?: string }) {
  if (task.status.phase !== "running") return null;
  return <ProgressBar value={task.status.progress} label={`Task ${task.id} progress`} className={className} />;
}

const ICONS: Record<TaskKind, typeof UploadIcon> = {
  upload: UploadIcon,
  import: DownloadIcon,
  "export-ipfs": CubeIcon,
  "export-url": SendIcon,
  transcode: LayersIcon,
  clip: FilmIcon,
};

function TaskIcon({ kind, phase }: { kind: TaskKind; phase: Phase }) {
  const Icon = ICONS[kind];
  return (
    <span
      className={cx(
        "flex size-9 shrink-0 items-center justify-center rounded-lg",
        phase === "failed" ? "bg-red-50 text-red-600" : phase === "completed" ? "bg-emerald-50 text-emerald-600" : "bg-indigo-50 text-indigo-600",
      )}
    >
      <Icon className="size-[18px]" />
    </span>
  );
}

/** The head of a task's row, on the tasks page and under an asset's exports: its icon, what it does and on what. */
export function TaskHeading({ task, children }: { task: Task; children?: ReactNode }) {
  const { kind, title, detail } = describeTask(task);
  return (
    <div className="flex min-w-0 items-start gap-3">
      <TaskIcon kind={kind} phase={task.status.phase} />
      <div className="min-w-0">
        <p className="text-sm font-medium text-zinc-900">{title}</p>
        {detail && (
          <p className="truncate text-xs text-zinc-500" title={detail}>
            {detail}
          </p>
        )}
        {children}
      </div>
    </div>
  );
}
