import type { SVGProps } from "react";
import { StrokeSvg } from "@/components/ui/stroke-svg";

/** The player's own icons (24px grid), kept apart from the dashboard's so /play loads only these. */
type IconProps = SVGProps<SVGSVGElement>;

function Icon({ children, className = "size-6", ...props }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" className={className} {...props}>
      {children}
    </svg>
  );
}

function Stroke({ className = "size-6", ...props }: IconProps) {
  return <StrokeSvg strokeWidth={2} className={className} {...props} />;
}

export const PlayIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 5.14v13.72a1 1 0 0 0 1.52.85l11.03-6.86a1 1 0 0 0 0-1.7L9.52 4.29A1 1 0 0 0 8 5.14Z" />
  </Icon>
);

export const PauseIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="6" y="4.5" width="4" height="15" rx="1.2" />
    <rect x="14" y="4.5" width="4" height="15" rx="1.2" />
  </Icon>
);

const Speaker = () => <path d="M11 5.5a.75.75 0 0 0-1.22-.58L6.4 7.6H4a1 1 0 0 0-1 1v6.8a1 1 0 0 0 1 1h2.4l3.38 2.68A.75.75 0 0 0 11 18.5v-13Z" />;

export const VolumeHighIcon = (p: IconProps) => (
  <Icon {...p}>
    <Speaker />
    <path d="M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" />
  </Icon>
);

export const VolumeLowIcon = (p: IconProps) => (
  <Icon {...p}>
    <Speaker />
    <path d="M15.5 8.5a5 5 0 0 1 0 7" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" />
  </Icon>
);

export const VolumeMutedIcon = (p: IconProps) => (
  <Icon {...p}>
    <Speaker />
    <path d="m16 9.5 5 5m0-5-5 5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" />
  </Icon>
);

export const EnterFullscreenIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M4 9V5.5A1.5 1.5 0 0 1 5.5 4H9M15 4h3.5A1.5 1.5 0 0 1 20 5.5V9M20 15v3.5a1.5 1.5 0 0 1-1.5 1.5H15M9 20H5.5A1.5 1.5 0 0 1 4 18.5V15" />
  </Stroke>
);

export const ExitFullscreenIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M9 4v3.5A1.5 1.5 0 0 1 7.5 9H4M20 9h-3.5A1.5 1.5 0 0 1 15 7.5V4M15 20v-3.5a1.5 1.5 0 0 1 1.5-1.5H20M4 15h3.5A1.5 1.5 0 0 1 9 16.5V20" />
  </Stroke>
);

export const SettingsIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M12.22 2h-.44a2 2 0 0 0-2 2v.18a2 2 0 0 1-1 1.73l-.43.25a2 2 0 0 1-2 0l-.15-.08a2 2 0 0 0-2.73.73l-.22.38a2 2 0 0 0 .73 2.73l.15.1a2 2 0 0 1 1 1.72v.51a2 2 0 0 1-1 1.74l-.15.09a2 2 0 0 0-.73 2.73l.22.38a2 2 0 0 0 2.73.73l.15-.08a2 2 0 0 1 2 0l.43.25a2 2 0 0 1 1 1.73V20a2 2 0 0 0 2 2h.44a2 2 0 0 0 2-2v-.18a2 2 0 0 1 1-1.73l.43-.25a2 2 0 0 1 2 0l.15.08a2 2 0 0 0 2.73-.73l.22-.39a2 2 0 0 0-.73-2.73l-.15-.08a2 2 0 0 1-1-1.74v-.5a2 2 0 0 1 1-1.74l.15-.09a2 2 0 0 0 .73-2.73l-.22-.38a2 2 0 0 0-2.73-.73l-.15.08a2 2 0 0 1-2 0l-.43-.25a2 2 0 0 1-1-1.73V4a2 2 0 0 0-2-2Z" />
    <circle cx="12" cy="12" r="3" />
  </Stroke>
);

export const CheckIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M20 6 9 17l-5-5" />
  </Stroke>
);

export const OfflineIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M4.9 19.1a10 10 0 0 1-1.6-12M7.8 16.2a6 6 0 0 1-.9-6.9M16.2 7.8a6 6 0 0 1 1.2 6.7M19.1 4.9a10 10 0 0 1 2 10.6M2 2l20 20" />
    <circle cx="12" cy="12" r="2" />
  </Stroke>
);

/** A counter-clockwise arrow around the clock: a broadcast to watch again. */
export const ReplayIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M3 12a9 9 0 1 0 3-6.7L3 8" />
    <path d="M3 3v5h5M12 7v5l3 2" />
  </Stroke>
);

export const AlertIcon = (p: IconProps) => (
  <Stroke {...p}>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 8v4M12 16h.01" />
  </Stroke>
);

export function Spinner({ className = "size-10" }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" aria-hidden="true" className={`animate-spin ${className}`}>
      <circle cx="12" cy="12" r="9.5" stroke="currentColor" strokeOpacity={0.2} strokeWidth={2.5} />
      <path d="M21.5 12A9.5 9.5 0 0 0 12 2.5" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" />
    </svg>
  );
}

export const LockIcon = (p: IconProps) => (
  <Stroke {...p}>
    <rect x="4.5" y="10.5" width="15" height="10" rx="2" />
    <path d="M8 10.5V7a4 4 0 0 1 8 0v3.5" />
  </Stroke>
);

export const PictureInPictureIcon = (p: IconProps) => (
  <Stroke {...p}>
    <path d="M21 10V6.5A1.5 1.5 0 0 0 19.5 5h-15A1.5 1.5 0 0 0 3 6.5v11A1.5 1.5 0 0 0 4.5 19H10" />
    <rect x="13" y="13" width="8" height="6" rx="1" fill="currentColor" />
  </Stroke>
);
