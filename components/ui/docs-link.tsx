import type { ReactNode } from "react";

/** The API reference and its guides (/docs, served beside the dashboard, not one of its pages). */
export function DocsLink({ children = "API docs and guides" }: { children?: ReactNode }) {
  return (
    <a href="/docs" className="font-medium text-indigo-600 hover:text-indigo-500">
      {children}
    </a>
  );
}
