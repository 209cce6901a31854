"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState, type ComponentType, type ReactNode, type SVGProps } from "react";
import { Logo } from "@/components/brand";
import { IconButton } from "@/components/ui/button";
import { cx } from "@/components/ui/cx";
import { signOutOfDashboard } from "@/lib/client/sign-out";
import type { Role } from "@/lib/users/schema";
import { ThemeToggle } from "./theme-toggle";
import {
  BookIcon,
  BroadcastIcon,
  ChartIcon,
  FilmIcon,
  KeyIcon,
  ListChecksIcon,
  LogOutIcon,
  MenuIcon,
  ServerIcon,
  ShareIcon,
  ShieldIcon,
  VideoIcon,
  WebhookIcon,
  XIcon,
} from "@/components/ui/icons";

interface NavItem {
  href: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Shown to operators only (the admin role); the page refuses others itself. */
  admin?: true;
  /** Not a dashboard page (the API reference): a plain link, which the client router does not try to render. */
  document?: true;
}

const NAV: { heading: string; items: NavItem[] }[] = [
  {
    heading: "Live",
    items: [
      { href: "/streams", label: "Streams", icon: VideoIcon },
      { href: "/broadcasts", label: "Broadcasts", icon: BroadcastIcon },
      { href: "/targets", label: "Multistream targets", icon: ShareIcon },
      { href: "/nodes", label: "Media nodes", icon: ServerIcon, admin: true },
    ],
  },
  {
    heading: "Video on demand",
    items: [
      { href: "/assets", label: "Assets", icon: FilmIcon },
      { href: "/tasks", label: "Tasks", icon: ListChecksIcon },
    ],
  },
  {
    heading: "Audience",
    items: [{ href: "/viewership", label: "Viewership", icon: ChartIcon }],
  },
  {
    heading: "Developers",
    items: [
      { href: "/webhooks", label: "Webhooks", icon: WebhookIcon },
      { href: "/api-keys", label: "API keys", icon: KeyIcon },
      { href: "/access-control", label: "Access control", icon: ShieldIcon },
      { href: "/docs", label: "API docs and guides", icon: BookIcon, document: true },
    ],
  },
];

export interface ShellUser {
  email: string;
  name?: string | null;
  role: Role;
}

export function DashboardShell({ user, children }: { user: ShellUser; children: ReactNode }) {
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);

  return (
    <div className="min-h-screen lg:pl-64">
      {/* desktop sidebar */}
      <aside className="fixed inset-y-0 left-0 z-30 hidden w-64 flex-col border-r border-white/10 bg-zinc-950 scheme-light lg:flex">
        <Sidebar pathname={pathname} user={user} />
      </aside>

      {/* mobile top bar and drawer */}
      <div className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-zinc-800 bg-zinc-950 px-4 scheme-light lg:hidden">
        <Link href="/streams" aria-label="Castline home">
          <Logo dark />
        </Link>
        <IconButton label="Open navigation" onClick={() => setMenuOpen(true)} className="p-2 text-zinc-300 hover:bg-zinc-800 hover:text-white">
          <MenuIcon className="size-5" />
        </IconButton>
      </div>
      {menuOpen && (
        <div className="fixed inset-0 z-40 lg:hidden" role="dialog" aria-modal="true" aria-label="Navigation">
          <div className="absolute inset-0 bg-zinc-950/60" onClick={() => setMenuOpen(false)} />
          <aside className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col bg-zinc-950 shadow-xl scheme-light">
            <IconButton
              label="Close navigation"
              onClick={() => setMenuOpen(false)}
              className="absolute top-4 right-3 p-1.5 text-zinc-400 hover:bg-zinc-800 hover:text-white"
            >
              <XIcon className="size-5" />
            </IconButton>
            <Sidebar pathname={pathname} user={user} onNavigate={() => setMenuOpen(false)} />
          </aside>
        </div>
      )}

      <main className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-10 lg:py-10">{children}</main>
    </div>
  );
}

function Sidebar({ pathname, user, onNavigate }: { pathname: string; user: ShellUser; onNavigate?: () => void }) {
  const initial = (user.name || user.email).trim().charAt(0).toUpperCase();
  return (
    <>
      <div className="flex h-16 shrink-0 items-center px-5">
        <Link href="/streams" aria-label="Castline home">
          <Logo dark />
        </Link>
      </div>
      <nav aria-label="Main" className="flex-1 space-y-6 overflow-y-auto px-3 py-4">
        {NAV.map((group) => (
          <div key={group.heading}>
            <p className="px-3 pb-2 text-[11px] font-semibold tracking-wider text-zinc-500 uppercase">{group.heading}</p>
            <ul className="space-y-0.5">
              {group.items
                .filter((item) => !item.admin || user.role === "admin")
                .map((item) => {
                  const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
                  const ItemLink = item.document ? "a" : Link;
                  return (
                    <li key={item.href}>
                      <ItemLink
                        href={item.href}
                        onClick={onNavigate}
                        aria-current={active ? "page" : undefined}
                        className={cx(
                          "group flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors",
                          active ? "bg-white/10 text-white" : "text-zinc-400 hover:bg-white/5 hover:text-white",
                        )}
                      >
                        <item.icon className={cx("size-[18px]", active ? "text-indigo-400" : "text-zinc-500 group-hover:text-zinc-300")} />
                        {item.label}
                      </ItemLink>
                    </li>
                  );
                })}
            </ul>
          </div>
        ))}
      </nav>
      <div className="space-y-2 border-t border-white/10 p-3">
        <ThemeToggle />
        <div className="flex items-center gap-3 rounded-lg px-2 py-2">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-500/20 text-sm font-semibold text-indigo-300">
            {initial}
          </span>
          <div className="min-w-0 flex-1">
            {user.name && <p className="truncate text-sm font-medium text-white">{user.name}</p>}
            <p className={cx("truncate text-xs", user.name ? "text-zinc-400" : "text-sm text-zinc-200")} data-testid="user-email">
              {user.email}
            </p>
          </div>
          <IconButton label="Sign out" title="Sign out" onClick={() => signOutOfDashboard()} className="p-1.5 text-zinc-400 hover:bg-white/10 hover:text-white">
            <LogOutIcon className="size-[18px]" />
          </IconButton>
        </div>
      </div>
    </>
  );
}
