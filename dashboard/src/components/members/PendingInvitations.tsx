//! The signed-in account's open invitations (issue 37), on the Websites page: each site, the role offered and
//! an Accept button. Nothing shows when there are none.
import { useInvitations, useAcceptInvitation } from "../../hooks/members";
import { serverMessage } from "../../lib/errors";
import { ROLE_LABELS } from "../../lib/roles";
import { useToast } from "../toast/toast";
import { Button, Card } from "../ui/primitives";

export function PendingInvitations() {
  const invitations = useInvitations();
  const accept = useAcceptInvitation();
  const { toast } = useToast();
  const list = invitations.data ?? [];
  if (list.length === 0) return null;
  return (
    <Card className="mb-6 p-5" data-testid="pending-invitations">
      <h2 className="text-base font-semibold text-white">Invitations</h2>
      <ul className="mt-3 divide-y divide-gray-800">
        {list.map((i) => (
          <li key={i.id} className="flex flex-wrap items-center gap-3 py-3">
            <p className="min-w-0 flex-1 text-sm text-gray-300">
              <span className="text-white">{i.websiteName}</span> ({i.websiteDomain}) as {ROLE_LABELS[i.role]}
            </p>
            <Button
              size="sm"
              disabled={accept.isPending}
              onClick={() =>
                accept.mutate(
                  { id: i.id },
                  {
                    onSuccess: (site) => toast({ title: "Invitation accepted", description: `${site.name} is among your websites.`, variant: "success" }),
                    onError: (err) => toast({ title: "Invitation not accepted", description: serverMessage(err), variant: "destructive" }),
                  },
                )
              }
            >
              Accept
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
