//! Any path outside the route table.
import { Link } from "react-router-dom";
import { useDocumentTitle } from "../hooks/title";

export default function NotFoundPage() {
  useDocumentTitle();
  return (
    <div className="flex min-h-screen items-center justify-center bg-gray-950 p-6">
      <div className="text-center">
        <h1 className="text-2xl font-semibold text-white">404 Page Not Found</h1>
        <p className="mt-2 text-sm text-gray-400">The page you are looking for does not exist or has moved.</p>
        <Link to="/" className="mt-6 inline-flex h-10 items-center rounded-lg bg-indigo-500 px-4 text-sm font-medium text-white hover:bg-indigo-400">
          Return to Home
        </Link>
      </div>
    </div>
  );
}
