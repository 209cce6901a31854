"use client";

import { ControlMenu } from "./control-menu";

const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];

const speedLabel = (rate: number) => (rate === 1 ? "Normal" : `${rate}×`);

/** The playback speed button (it shows the speed) and its menu, for videos on demand. */
export function SpeedMenu({
  rate,
  onChoose,
  onOpenChange,
}: {
  rate: number;
  onChoose: (rate: number) => void;
  /** Tells the player to keep its controls up while the menu is open. */
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <ControlMenu
      title="Speed"
      buttonLabel={`Speed: ${speedLabel(rate)}`}
      choices={SPEEDS.map((value) => ({ value, label: speedLabel(value) }))}
      checked={rate}
      onChoose={onChoose}
      onOpenChange={onOpenChange}
      icon={() => <span className="text-[13px] font-semibold tabular-nums">{rate}×</span>}
    />
  );
}
