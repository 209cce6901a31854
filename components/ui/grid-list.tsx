import type { ReactNode } from "react";
import { cx } from "./cx";

/** Tailwind needs whole class names: the table layout from each breakpoint up. */
const FROM = {
  md: { grid: "md:grid md:gap-x-4", wideGrid: "md:grid md:gap-x-6", subgrid: "md:col-span-full md:grid md:grid-cols-subgrid" },
  xl: { grid: "xl:grid xl:gap-x-4", wideGrid: "xl:grid xl:gap-x-6", subgrid: "xl:col-span-full xl:grid xl:grid-cols-subgrid" },
};

/**
 * A list page's items as a table from a breakpoint up (a stack of rows below it): a row of column
 * names, for the eye only (each row labels its own cells), then the rows, in a subgrid of `columns`.
 * Rows are `<li>`s that span the grid (`md:col-span-full md:grid md:grid-cols-subgrid`).
 */
export function GridList({
  label,
  columns,
  headings,
  from = "md",
  wideGaps = false,
  children,
}: {
  label: string;
  columns: string;
  headings: ReactNode;
  from?: keyof typeof FROM;
  wideGaps?: boolean;
  children: ReactNode;
}) {
  const at = FROM[from];
  return (
    <div
      className={cx("overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-zinc-200", wideGaps ? at.wideGrid : at.grid)}
      style={{ gridTemplateColumns: columns }}
    >
      <div aria-hidden="true" className={cx("hidden border-b border-zinc-100 bg-zinc-50/60 px-5 py-2.5 text-xs font-medium text-zinc-500", at.subgrid)}>
        {headings}
      </div>
      <ul aria-label={label} className={cx("divide-y divide-zinc-100", at.subgrid)}>
        {children}
      </ul>
    </div>
  );
}
