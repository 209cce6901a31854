/** Request header in which proxy.ts hands the requested page (path and query) to the dashboard's layout. */
export const PAGE_HEADER = "x-castline-page";
