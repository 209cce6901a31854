import type { ReactNode } from "react";
import { Logo } from "@/components/brand";
import { BroadcastIcon, LayersIcon, ShareIcon } from "@/components/ui/icons";

const POINTS = [
  { icon: BroadcastIcon, title: "Go live from any encoder", text: "OBS, vMix or ffmpeg over RTMP, one stream key per show." },
  { icon: LayersIcon, title: "Adaptive renditions", text: "720p, 480p and 360p made for every viewer's connection." },
  { icon: ShareIcon, title: "Multistream anywhere", text: "Forward the same broadcast to YouTube, Twitch and more." },
];

/** Sign-in and sign-up: the form on the right, what Castline does on the left (wide screens). */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-screen">
      <div className="relative hidden w-[44%] max-w-xl flex-col justify-between overflow-hidden bg-zinc-950 p-10 scheme-light lg:flex">
        <div aria-hidden="true" className="pointer-events-none absolute -top-40 -left-40 size-[36rem] rounded-full bg-indigo-600/30 blur-3xl" />
        <div aria-hidden="true" className="pointer-events-none absolute -right-32 bottom-0 size-96 rounded-full bg-fuchsia-600/15 blur-3xl" />
        <Logo dark className="relative" />
        <div className="relative">
          <h2 className="text-3xl leading-tight font-semibold tracking-tight text-white">
            Your streams, your server,
            <br />
            <span className="text-indigo-300">your audience.</span>
          </h2>
          <ul className="mt-10 space-y-6">
            {POINTS.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-white/5 text-indigo-300 ring-1 ring-white/10">
                  <Icon className="size-5" />
                </span>
                <span>
                  <span className="block text-sm font-semibold text-white">{title}</span>
                  <span className="mt-0.5 block text-sm text-zinc-400">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-xs text-zinc-500">Self-hosted live streaming and video on demand.</p>
      </div>

      <div className="flex flex-1 flex-col items-center justify-center px-4 py-12 sm:px-6">
        <div className="w-full max-w-sm">
          <Logo className="mb-10 lg:hidden" />
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
          <p className="mt-1.5 text-sm text-zinc-500">{subtitle}</p>
          <div className="mt-8">{children}</div>
        </div>
      </div>
    </div>
  );
}
