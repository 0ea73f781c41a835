//! Roles on a site (issue 37), ordered: what a role may do in the dashboard, so a control the signed-in
//! account's role may not use is not shown (the daemon refuses it anyway, with a 403).
import type { Role } from "../api/members";

export const ROLES: readonly Role[] = ["viewer", "editor", "admin", "owner"];
/** The roles a member may be given (an owner is a site's creator). */
export const MEMBER_ROLES: readonly Role[] = ["viewer", "editor", "admin"];

/** Whether `role` may do what `needed` may (a missing role may do nothing). */
export function atLeast(role: Role | undefined, needed: Role): boolean {
  return role !== undefined && ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export const ROLE_LABELS: Record<Role, string> = { viewer: "Viewer", editor: "Editor", admin: "Admin", owner: "Owner" };

/** The id and token of an invitation link (`/invitations#id=5&token=...`), or null. */
export function invitationFromHash(hash: string): { id: number; token: string } | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const id = Number(params.get("id"));
  const token = params.get("token") ?? "";
  return Number.isInteger(id) && id > 0 && token ? { id, token } : null;
}
