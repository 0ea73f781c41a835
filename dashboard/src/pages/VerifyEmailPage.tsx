//! The page a verification link opens (issue 33): the token comes after `#` (never sent to a server, so no log
//! holds it), is taken out of the address bar at once, and posted to POST /api/user/email/verify. No sign-in
//! is needed: the link may be opened on another device.
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { settingsApi } from "../api/settings";
import { useDocumentTitle } from "../hooks/title";
import { serverMessage } from "../lib/errors";
import { tokenFromHash } from "../lib/settings";
import { Spinner } from "../components/ui/primitives";

type State = { kind: "working" } | { kind: "verified"; email: string } | { kind: "failed"; message: string };

export default function VerifyEmailPage() {
  useDocumentTitle();
  const [state, setState] = useState<State>({ kind: "working" });
  // React runs effects twice in development; the token works once.
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const token = tokenFromHash(window.location.hash);
    window.history.replaceState(null, "", window.location.pathname);
    if (!token) {
      setState({ kind: "failed", message: "This link has no verification token: open the link from the email again." });
      return;
    }
    settingsApi
      .confirmEmail(token)
      .then((answer) => setState({ kind: "verified", email: answer.email }))
      .catch((err: unknown) => setState({ kind: "failed", message: serverMessage(err) }));
  }, []);

  return (
    <div className="flex min-h-screen items-center justify-center bg-gray-950 p-6">
      <div className="max-w-md text-center" role="status" data-testid="verify-email">
        <h1 className="text-2xl font-semibold text-white">Email verification</h1>
        {state.kind === "working" && <Spinner className="mx-auto mt-6" label="Verifying" />}
        {state.kind === "verified" && (
          <p className="mt-3 text-sm text-gray-300">
            <strong className="text-white">{state.email}</strong> is verified: weekly reports and alerts you turn on in Settings will be sent to it.
          </p>
        )}
        {state.kind === "failed" && <p className="mt-3 text-sm text-red-300">{state.message}</p>}
        <Link to="/settings" className="mt-6 inline-flex h-10 items-center rounded-lg bg-indigo-500 px-4 text-sm font-medium text-white hover:bg-indigo-400">
          Go to Settings
        </Link>
      </div>
    </div>
  );
}
