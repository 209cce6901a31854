import { formatDateTime, timeAgo } from "@/lib/client/format";

/** How long ago something happened ("5 minutes ago"), with the exact time on hover. */
export function TimeAgo({ at, className }: { at: number; className?: string }) {
  return (
    <span className={className} title={formatDateTime(at)}>
      {timeAgo(at)}
    </span>
  );
}
