"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import type { ListQuery } from "@/lib/api/list-query";

export interface ListFilter {
  id: string;
  value: unknown;
}

function parseFilters(text: string | null): ListFilter[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((f): f is ListFilter => typeof f?.id === "string" && "value" in f) : [];
  } catch {
    return [];
  }
}

/**
 * A list page's search, filters and order, kept in the page's URL with the API's own
 * parameters (`filters=[{id,value}]`, `order=<key>-<desc>`): a search can be bookmarked
 * and shared, and the list asks the API with exactly what the URL says.
 */
export function useListParams() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filtersText = params.get("filters");
  const filters = useMemo(() => parseFilters(filtersText), [filtersText]);
  const order = params.get("order") ?? undefined;

  const replace = useCallback(
    (next: { filters: ListFilter[]; order?: string }) => {
      const query = new URLSearchParams({ ...listQuery(next) }).toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [pathname, router],
  );

  return {
    filters,
    order,
    /** The same parameters, for the API's list request. */
    apiQuery: listQuery({ filters, order }),
    filter: (id: string) => filters.find((f) => f.id === id)?.value,
    /** Sets the filters with these ids (undefined: removes it), keeping the others. */
    setFilters: (changes: Record<string, unknown>) =>
      replace({
        order,
        filters: [
          ...filters.filter((f) => !(f.id in changes)),
          ...Object.entries(changes)
            .filter(([, value]) => value !== undefined)
            .map(([id, value]) => ({ id, value })),
        ],
      }),
    setOrder: (next: string | undefined) => replace({ filters, order: next }),
    clear: () => replace({ filters: [] }),
  };
}

function listQuery({ filters, order }: { filters: ListFilter[]; order?: string }): ListQuery {
  return { ...(filters.length && { filters: JSON.stringify(filters) }), ...(order && { order }) };
}
