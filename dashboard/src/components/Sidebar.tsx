//! The sidebar: brand, the navigation items of src/screens.ts (current one highlighted), user email, logout. Fixed at
//! `lg` and wider; below that it slides in over the page while `open` (Escape closes it).
import { useEffect } from "react";
import { NavLink, useNavigate } from "react-router-dom";
import { useLogout, useUser } from "../hooks/auth";
import { NAV_ITEMS } from "../screens";
import { useToast } from "./toast/toast";
import { IconActivity, IconLogout } from "./ui/icons";
import { cx } from "./ui/primitives";

export function Sidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const user = useUser();
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, onClose]);
  const logout = useLogout();
  const navigate = useNavigate();
  const { toast } = useToast();

  function onLogout() {
    try {
      logout();
      navigate("/auth", { replace: true });
    } catch (e) {
      console.error(e);
      toast({ title: "Logout failed", variant: "destructive" });
    }
  }

  return (
    <aside
      id="main-navigation"
      className={cx(
        "fixed inset-y-0 left-0 z-40 flex w-64 flex-col border-r border-gray-800 bg-gray-950 transition-transform lg:translate-x-0",
        open ? "translate-x-0" : "-translate-x-full",
      )}
    >
      <div className="flex h-16 items-center gap-2.5 border-b border-gray-800 px-5">
        <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-gradient-to-br from-indigo-500 to-sky-500 text-white shadow-lg shadow-indigo-500/20">
          <IconActivity className="h-4 w-4" />
        </span>
        <div>
          <p className="text-sm font-semibold text-white">tracker</p>
          <p className="text-[11px] text-gray-500">Website analytics</p>
        </div>
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="space-y-0.5">
          {NAV_ITEMS.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.to === "/"}
                className={({ isActive }) =>
                  cx(
                    "flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors",
                    isActive ? "bg-indigo-500/15 text-indigo-300 ring-1 ring-inset ring-indigo-500/25" : "text-gray-400 hover:bg-gray-900 hover:text-gray-100",
                  )
                }
              >
                <item.icon className="h-4 w-4 shrink-0" />
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="border-t border-gray-800 p-4">
        <div className="flex items-center gap-3">
          <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-gray-800 text-xs font-semibold uppercase text-gray-300">
            {user.data?.email?.[0] ?? "?"}
          </span>
          <p className="min-w-0 flex-1 truncate text-sm text-gray-300" data-testid="user-email" title={user.data?.email}>
            {user.data?.email}
          </p>
          <button
            type="button"
            onClick={onLogout}
            aria-label="Logout"
            title="Logout"
            className="rounded-md p-2 text-gray-400 hover:bg-gray-800 hover:text-white"
          >
            <IconLogout className="h-4 w-4" />
          </button>
        </div>
      </div>
    </aside>
  );
}
