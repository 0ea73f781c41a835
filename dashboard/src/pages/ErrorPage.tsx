//! The error fallback page (spec part 1 §2).
import { IconAlert } from "../components/ui/icons";
import { Button } from "../components/ui/primitives";

export function ErrorPage({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-gray-950 p-6">
      <div className="w-full max-w-md rounded-2xl border border-gray-800 bg-gray-900/70 p-8 text-center shadow-2xl">
        <div className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-red-500/15 text-red-400">
          <IconAlert className="h-6 w-6" />
        </div>
        <h1 className="text-xl font-semibold text-white">Something went wrong</h1>
        <p className="mt-2 text-sm text-gray-400">We encountered an unexpected error. Please try again.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Button onClick={onRetry}>Try Again</Button>
          <Button variant="outline" onClick={() => window.location.reload()}>
            Reload Page
          </Button>
          <Button variant="ghost" onClick={() => window.location.assign("/")}>
            Go Home
          </Button>
        </div>
      </div>
    </div>
  );
}
