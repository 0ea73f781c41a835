//! The Members card of a site (issue 37), for its admins and owner: invite an address with a role (the link to
//! copy when the server has no email), the owner and members with their roles (changed or removed here; one's
//! own role and the owner's are not), and the open invitations (withdrawn here). The owner hands the site over
//! to an admin here, after a confirmation: that admin becomes the owner and the old owner an admin.
import { useState } from "react";
import type { FormEvent } from "react";
import type { CreatedInvitation, Role } from "../../api/members";
import type { Website } from "../../api/types";
import { useUser } from "../../hooks/auth";
import { useHandOver, useInviteMember, useMembers, useRemoveMember, useSetMemberRole, useWithdrawInvitation } from "../../hooks/members";
import { serverMessage } from "../../lib/errors";
import { MEMBER_ROLES, ROLE_LABELS } from "../../lib/roles";
import { formatDate } from "../../lib/time";
import { CopyButton } from "../CopyButton";
import { QueryState } from "../page/QueryState";
import { useToast } from "../toast/toast";
import { Dialog } from "../ui/Dialog";
import { IconTrash } from "../ui/icons";
import { Badge, Button, Input, Label, Select, Skeleton } from "../ui/primitives";

export function MembersDialog({ website, onClose }: { website: Website | undefined; onClose: () => void }) {
  return (
    <Dialog open={!!website} onClose={onClose} title="Members" description={website ? `Who may see and change ${website.name}` : undefined} size="lg">
      {/* Keyed by site: another site's dialog starts without the last one's link. */}
      {website && <Members key={website.id} site={website.id} />}
    </Dialog>
  );
}

function Members({ site }: { site: number }) {
  const members = useMembers(site);
  const handOver = useHandOver(site);
  const [handing, setHanding] = useState<{ memberId: number; email: string } | null>(null);
  const me = useUser().data?.id;
  const setRole = useSetMemberRole(site);
  const remove = useRemoveMember(site);
  const withdraw = useWithdrawInvitation(site);
  const { toast } = useToast();
  const failed = (title: string) => (err: unknown) => toast({ title, description: serverMessage(err), variant: "destructive" });

  return (
    <div className="space-y-6" data-testid="members">
      <InviteForm site={site} />
      <QueryState query={members} skeleton={<Skeleton className="h-32" />}>
        {(data) => {
          // Read from the list itself, so it is right again at once after a hand-over.
          const owner = data.members.some((m) => m.role === "owner" && m.memberId === me);
          return (
          <>
            <ul className="divide-y divide-gray-800 rounded-xl border border-gray-800" aria-label="Members">
              {data.members.map((m) => (
                <li key={m.memberId} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="member">
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm text-white">{m.email}</p>
                    <p className="text-xs text-gray-500">since {formatDate(m.since)}</p>
                  </div>
                  {m.role === "owner" || m.memberId === me ? (
                    <Badge tone={m.role === "owner" ? "green" : "gray"}>{ROLE_LABELS[m.role]}</Badge>
                  ) : (
                    <>
                      <Select
                        aria-label={`Role of ${m.email}`}
                        className="w-32"
                        value={m.role}
                        onChange={(e) => setRole.mutate({ member: m.memberId, role: e.target.value as Role }, { onError: failed("Role not changed") })}
                      >
                        {MEMBER_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {ROLE_LABELS[r]}
                          </option>
                        ))}
                      </Select>
                      {owner && m.role === "admin" && (
                        <Button size="sm" variant="outline" aria-label={`Make ${m.email} the owner`} onClick={() => setHanding(m)}>
                          Make owner
                        </Button>
                      )}
                      <Button
                        size="icon"
                        variant="ghost"
                        className="text-gray-500 hover:text-red-400"
                        aria-label={`Remove ${m.email}`}
                        onClick={() => remove.mutate(m.memberId, { onError: failed("Member not removed") })}
                      >
                        <IconTrash />
                      </Button>
                    </>
                  )}
                </li>
              ))}
            </ul>
            {handing && (
              <div role="alert" className="rounded-xl border border-amber-500/30 bg-amber-500/10 p-4 text-sm text-amber-100" data-testid="hand-over">
                <p>
                  Make {handing.email} the owner? They may then delete the website or hand it on; you stay on it as an admin. Only the new owner can undo
                  this.
                </p>
                <div className="mt-3 flex gap-2">
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={handOver.isPending}
                    onClick={() =>
                      handOver.mutate(handing.memberId, {
                        onSuccess: () => {
                          setHanding(null);
                          toast({ title: "Ownership handed over", description: `${handing.email} owns the website now.`, variant: "success" });
                        },
                        onError: failed("Ownership not handed over"),
                      })
                    }
                  >
                    Hand over
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setHanding(null)}>
                    Cancel
                  </Button>
                </div>
              </div>
            )}
            {data.invitations.length > 0 && (
              <div>
                <h3 className="mb-2 text-sm font-medium text-gray-300">Open invitations</h3>
                <ul className="divide-y divide-gray-800 rounded-xl border border-gray-800">
                  {data.invitations.map((i) => (
                    <li key={i.id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="invitation">
                      <div className="min-w-0 flex-1">
                        <p className="truncate text-sm text-white">{i.email}</p>
                        <p className="text-xs text-gray-500">
                          {ROLE_LABELS[i.role]} · until {formatDate(i.expiresAt)}
                        </p>
                      </div>
                      <Button size="sm" variant="outline" onClick={() => withdraw.mutate(i.id, { onError: failed("Invitation not withdrawn") })}>
                        Withdraw
                      </Button>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </>
          );
        }}
      </QueryState>
    </div>
  );
}

function InviteForm({ site }: { site: number }) {
  const invite = useInviteMember(site);
  const { toast } = useToast();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const [created, setCreated] = useState<CreatedInvitation | undefined>();

  function submit(e: FormEvent) {
    e.preventDefault();
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (answer) => {
          setCreated(answer);
          setEmail("");
          toast({ title: "Invitation created", description: answer.emailed ? `Sent to ${answer.email}.` : "Copy the link and send it to them.", variant: "success" });
        },
        onError: (err) => toast({ title: "Invitation not sent", description: serverMessage(err), variant: "destructive" }),
      },
    );
  }

  return (
    <div>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Invite a member">
        <div className="min-w-[12rem] flex-1">
          <Label htmlFor="invite-email">Email</Label>
          <Input id="invite-email" type="email" placeholder="colleague@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="w-32">
          <Label htmlFor="invite-role">Role</Label>
          <Select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {MEMBER_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" disabled={invite.isPending || !email.trim()}>
          Invite
        </Button>
      </form>
      {created?.link && (
        <div className="mt-3 rounded-lg border border-gray-800 bg-gray-950 p-3" data-testid="invitation-link">
          <p className="text-xs text-gray-400">Email is not configured on this server: send {created.email} this link (it works for 7 days, once):</p>
          <div className="mt-2 flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate font-mono text-xs text-gray-200">{created.link}</code>
            <CopyButton text={created.link} label="Copy link" copiedLabel="Copied" successTitle="Link copied" successDescription="Send it to the person you invited." />
          </div>
        </div>
      )}
    </div>
  );
}
