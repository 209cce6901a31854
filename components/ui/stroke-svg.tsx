import type { SVGProps } from "react";

/** The frame of every stroke icon (24px grid), shared by the dashboard's and the player's icon sets. */
export function StrokeSvg({ children, strokeWidth = 1.75, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...props}
    >
      {children}
    </svg>
  );
}
