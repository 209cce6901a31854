/** Room left of a chart for its value axis: the chart's box and what lines up with it take it as padding. */
export const AXIS_ROOM = "pl-16";

const axisValue = new Intl.NumberFormat("en", { maximumFractionDigits: 2 });

/**
 * The value axis of a chart in a `relative` box with AXIS_ROOM: the top value with its unit
 * (`unit` as it follows a number: " kb/s", "%"), the half, and 0. The charts of a page share
 * one look: ingest health (components/broadcasts) and viewership (components/analytics).
 */
export function ValueAxis({ top, unit }: { top: number; unit: string }) {
  return (
    <div className="absolute inset-y-0 left-0 w-14 text-right text-[10px] leading-none text-zinc-500 tabular-nums" aria-hidden="true">
      <span className="absolute top-0 right-0 whitespace-nowrap">
        {axisValue.format(top)}
        {unit}
      </span>
      <span className="absolute top-1/2 right-0 -translate-y-1/2">{axisValue.format(top / 2)}</span>
      <span className="absolute right-0 bottom-0">0</span>
    </div>
  );
}
