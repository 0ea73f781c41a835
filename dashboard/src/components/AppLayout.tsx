//! Protected shell: spinner while the user loads, redirect to /auth without one, else sidebar + page.
import { Suspense } from "react";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { useUser } from "../hooks/auth";
import { Sidebar } from "./Sidebar";
import { FullPageSpinner } from "./ui/primitives";

export function ProtectedLayout() {
  const user = useUser();
  const location = useLocation();
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
      <Sidebar />
      <main className="pl-64">
        <div className="mx-auto max-w-7xl px-8 py-8">
          <Suspense fallback={<FullPageSpinner />}>
            <Outlet />
          </Suspense>
        </div>
      </main>
    </div>
  );
}
