/** How the viewership pages write their figures. */

const count = new Intl.NumberFormat("en");

/** Minutes watched: to the second or so while few, whole once many. */
export function formatMinutes(minutes: number): string {
  return new Intl.NumberFormat("en", { maximumFractionDigits: minutes < 10 ? 2 : minutes < 100 ? 1 : 0 }).format(minutes);
}

/** A share in percent: small rates (rebuffering) keep two decimals, so 0.04% is not shown as 0%. */
export function formatPercent(fraction: number): string {
  const points = fraction * 100;
  return `${new Intl.NumberFormat("en", { maximumFractionDigits: points && points < 1 ? 2 : 1 }).format(points)}%`;
}

export const formatCount = (n: number) => count.format(n);

/** A unit after its number: "12 ms", but "12%". */
export const unitAfter = (unit: string) => (unit === "%" ? unit : ` ${unit}`);
