"use client";

import { useEffect, useState } from "react";
import { cx } from "@/components/ui/cx";
import { MonitorIcon, MoonIcon, SunIcon } from "@/components/ui/icons";
import { setTheme, storedTheme, THEMES, type Theme } from "@/lib/client/theme";

const LABELS: Record<Theme, { label: string; icon: typeof SunIcon }> = {
  system: { label: "System theme", icon: MonitorIcon },
  light: { label: "Light theme", icon: SunIcon },
  dark: { label: "Dark theme", icon: MoonIcon },
};

/** System, light or dark, in the sidebar (which is dark in every theme). */
export function ThemeToggle() {
  // "system" until mounted: the server cannot know the stored choice.
  const [theme, setChosen] = useState<Theme>("system");
  useEffect(() => setChosen(storedTheme()), []);

  return (
    <div role="group" aria-label="Theme" className="flex rounded-lg bg-white/5 p-0.5 ring-1 ring-white/10">
      {THEMES.map((option) => {
        const { label, icon: Icon } = LABELS[option];
        const active = option === theme;
        return (
          <button
            key={option}
            type="button"
            aria-label={label}
            title={label}
            aria-pressed={active}
            onClick={() => {
              setTheme(option);
              setChosen(option);
            }}
            className={cx(
              "flex flex-1 items-center justify-center rounded-md py-1 transition-colors",
              active ? "bg-white/15 text-white" : "text-zinc-400 hover:text-white",
            )}
          >
            <Icon className="size-4" />
          </button>
        );
      })}
    </div>
  );
}
