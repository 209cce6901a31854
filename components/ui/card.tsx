import type { ReactNode } from "react";
import { cx } from "./cx";
import type { Heading } from "./states";

export function Card({ className, children, id }: { className?: string; children: ReactNode; id?: string }) {
  return (
    <section id={id} className={cx("rounded-xl bg-white shadow-xs ring-1 ring-zinc-200", className)}>
      {children}
    </section>
  );
}

export function CardHeader({ title, description, action, icon }: Heading & { icon?: ReactNode }) {
  return (
    <div className="flex items-start justify-between gap-3 border-b border-zinc-100 px-5 py-4">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        {icon && <div className="mt-0.5 rounded-lg bg-indigo-50 p-1.5 text-indigo-600">{icon}</div>}
        <div className="min-w-0">
          <h2 className="text-[15px] font-semibold text-zinc-900">{title}</h2>
          {description && <p className="mt-0.5 text-sm text-zinc-500">{description}</p>}
        </div>
      </div>
      {action && <div className="flex shrink-0 items-center gap-2">{action}</div>}
    </div>
  );
}

export function CardBody({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cx("px-5 py-4", className)}>{children}</div>;
}
