//! A site's team (issue 37): its members and invitations for its admins, the signed-in account's own
//! invitations, and the writes; each write refreshes the lists it changes.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { keys } from "../api/keys";
import type { CreatedInvitation, Invitation, Member, MemberEmails, Role, SiteMembers } from "../api/members";
import type { Website } from "../api/types";
import { useUser } from "./auth";

const membersKey = (site: number) => keys.site(site).read("members");

export function useMembers(site: number | undefined) {
  return useQuery({
    queryKey: membersKey(site ?? 0),
    queryFn: () => api.get<SiteMembers>(`/api/websites/${site}/members`),
    enabled: site !== undefined,
  });
}

export function useInviteMember(site: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role: Role }) => api.post<CreatedInvitation>(`/api/websites/${site}/members`, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: membersKey(site) }),
  });
}

export function useSetMemberRole(site: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ member, role }: { member: number; role: Role }) =>
      api.put<Member>(`/api/websites/${site}/members/${member}`, { role }),
    onSuccess: () => void client.invalidateQueries({ queryKey: membersKey(site) }),
  });
}

export function useRemoveMember(site: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (member: number) => api.del(`/api/websites/${site}/members/${member}`),
    onSuccess: () => void client.invalidateQueries({ queryKey: membersKey(site) }),
  });
}

/** Hands the site over to an admin member (owner only): the caller becomes an admin, so the site list's role
 * changes too. */
export function useHandOver(site: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (member: number) => api.post<SiteMembers>(`/api/websites/${site}/owner`, { memberId: member }),
    onSuccess: (team) => {
      client.setQueryData(membersKey(site), team);
      void client.invalidateQueries({ queryKey: keys.websites });
    },
  });
}

export function useWithdrawInvitation(site: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitation: number) => api.del(`/api/websites/${site}/invitations/${invitation}`),
    onSuccess: () => void client.invalidateQueries({ queryKey: membersKey(site) }),
  });
}

const ownEmailsKey = (site: number) => keys.site(site).read("members/me/notifications");

/** The signed-in account's own emails of a site: a member's choice, or the owner's account switches. */
export function useOwnEmails(site: number) {
  return useQuery({
    queryKey: ownEmailsKey(site),
    queryFn: () => api.get<MemberEmails>(`/api/websites/${site}/members/me/notifications`),
  });
}

/** Turns the calling member's report or alerts of a site on or off; the answer is the choice as saved. */
export function useSetOwnEmails(site: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { reports?: boolean; alerts?: boolean }) =>
      api.put<MemberEmails>(`/api/websites/${site}/members/me/notifications`, change),
    onSuccess: (saved) => client.setQueryData(ownEmailsKey(site), saved),
  });
}

/** The open invitations to the signed-in account's confirmed address. */
export function useInvitations() {
  const user = useUser();
  return useQuery({
    queryKey: keys.invitations,
    queryFn: () => api.get<Invitation[]>("/api/user/invitations"),
    enabled: !!user.data,
  });
}

export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, token }: { id: number; token?: string }) =>
      api.post<Website>(`/api/user/invitations/${id}/accept`, token ? { token } : {}),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.invitations });
      void client.invalidateQueries({ queryKey: keys.websites });
      void client.invalidateQueries({ queryKey: keys.sitesPeriods.all });
    },
  });
}
