//! Protected shell: spinner while the user loads, redirect to /auth without one, else sidebar + page.
//! Below the `lg` breakpoint the sidebar leaves the page its whole width and slides in from a top bar's
//! menu button instead (a 256 px column would leave a phone's page about 130 px).
import { Suspense, useEffect, useState } from "react";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { useUser } from "../hooks/auth";
import { useDocumentTitle } from "../hooks/title";
import { Sidebar } from "./Sidebar";
import { IconActivity, IconMenu } from "./ui/icons";
import { FullPageSpinner } from "./ui/primitives";

export function ProtectedLayout() {
  const user = useUser();
  const location = useLocation();
  const [navOpen, setNavOpen] = useState(false);
  useDocumentTitle();
  // Following a link in the slid-in navigation closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path change is the trigger, not a value read
  useEffect(() => setNavOpen(false), [location.pathname]);
  if (user.isPending) {
    return (
      <div className="flex min-h-screen items-center justify-center bg-gray-950">
        <FullPageSpinner />
      </div>
    );
  }
  if (!user.data) return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  return (
    <div className="min-h-screen bg-gray-950">
      <header className="sticky top-0 z-20 flex h-14 items-center gap-3 border-b border-gray-800 bg-gray-950/95 px-4 backdrop-blur lg:hidden">
        <button
          type="button"
          aria-label="Open navigation"
          aria-expanded={navOpen}
          aria-controls="main-navigation"
          onClick={() => setNavOpen(true)}
          className="rounded-md p-2 text-gray-300 hover:bg-gray-800 hover:text-white"
        >
          <IconMenu className="h-5 w-5" />
        </button>
        <span className="flex h-7 w-7 items-center justify-center rounded-lg bg-gradient-to-br from-indigo-500 to-sky-500 text-white">
          <IconActivity className="h-4 w-4" />
        </span>
        <span className="text-sm font-semibold text-white">tracker</span>
      </header>
      {navOpen && (
        <button
          type="button"
          aria-label="Close navigation"
          className="fixed inset-0 z-30 bg-black/60 lg:hidden"
          onClick={() => setNavOpen(false)}
        />
      )}
      <Sidebar open={navOpen} onClose={() => setNavOpen(false)} />
      <main className="lg:pl-64">
        <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
          <Suspense fallback={<FullPageSpinner />}>
            <Outlet />
          </Suspense>
        </div>
      </main>
    </div>
  );
}
