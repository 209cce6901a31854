"use client";

import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ChartIcon } from "@/components/ui/icons";
import { FormErrors, LoadingState } from "@/components/ui/states";
import { useViewershipSeries, useViewershipTotals, useViewRange, windowOf, type ViewsOf, type ViewWindow } from "@/lib/client/analytics-hooks";
import { Breakdowns, NoViews, RangePicker, TotalTiles, TrendCharts } from "./viewership-parts";

/**
 * Who watched one stream or video, and how it played for them, over a range: totals, a chart a
 * step for each figure, and breakdowns by browser, device, OS and country. From the viewers'
 * players' reports (the dashboard's own previews are not counted).
 */
export function ViewershipCard({ of, noun }: { of: { streamId: string } | { assetId: string }; noun: "stream" | "video" }) {
  const [range, setRange] = useViewRange();
  const w = windowOf(range);
  const totals = useViewershipTotals(of, w);
  return (
    <Card id="viewership">
      <CardHeader icon={<ChartIcon className="size-4" />} title="Viewership" description={`Views of this ${noun} as viewers’ players report them.`} />
      <CardBody className="space-y-5">
        <RangePicker range={range} onChange={setRange} />
        {totals.isPending ? (
          <LoadingState compact />
        ) : totals.isError ? (
          <FormErrors error={totals.error} />
        ) : totals.data.viewCount === 0 ? (
          <NoViews of={of} window={w} />
        ) : (
          <>
            <TotalTiles totals={totals.data} />
            <Trends of={of} window={w} />
            <Breakdowns of={of} window={w} className="sm:grid-cols-2" />
          </>
        )}
      </CardBody>
    </Card>
  );
}

function Trends({ of, window: w }: { of: ViewsOf; window: ViewWindow }) {
  const series = useViewershipSeries(of, w);
  if (series.isPending) return <LoadingState compact />;
  if (series.isError) return <FormErrors error={series.error} />;
  return <TrendCharts window={w} rows={series.data} />;
}
