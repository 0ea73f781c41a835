//! The page an invitation link opens (issue 37): its id and token come after `#` (never sent to a server, so no
//! log holds them) and are taken out of the address bar at once; the signed-in account accepts with them, and
//! the site opens. Another account than the invited address's is told the invitation is not for it.
import { useRef, useState } from "react";
import { Link } from "react-router-dom";
import type { Website } from "../api/types";
import { useAcceptInvitation } from "../hooks/members";
import { serverMessage } from "../lib/errors";
import { invitationFromHash } from "../lib/roles";
import { Button, Card, PageHeader } from "../components/ui/primitives";

export default function InvitationPage() {
  // Read once, before the address bar is cleaned.
  const link = useRef(invitationFromHash(window.location.hash));
  if (window.location.hash) window.history.replaceState(null, "", window.location.pathname);
  const accept = useAcceptInvitation();
  const [joined, setJoined] = useState<Website | undefined>();
  const invitation = link.current;

  return (
    <>
      <PageHeader title="Invitation" description="Join a website's team" />
      <Card className="max-w-lg p-6" data-testid="invitation-page">
        {!invitation && <p className="text-sm text-red-300">This link has no invitation in it: open the link you were sent again.</p>}
        {invitation && !joined && (
          <>
            <p className="text-sm text-gray-300">Accept the invitation with the account you are signed in with (its email must be the invited address).</p>
            <Button className="mt-4" disabled={accept.isPending} onClick={() => accept.mutate(invitation, { onSuccess: setJoined })}>
              Accept invitation
            </Button>
            {accept.isError && <p className="mt-3 text-sm text-red-300">{serverMessage(accept.error)}</p>}
          </>
        )}
        {joined && (
          <p className="text-sm text-gray-300">
            You are now {joined.role === "admin" ? "an" : "a"} {joined.role} of <strong className="text-white">{joined.name}</strong>.{" "}
            <Link to={`/dashboard?website=${joined.id}`} className="text-indigo-400 hover:text-indigo-300">
              Open its dashboard
            </Link>
          </p>
        )}
      </Card>
    </>
  );
}
