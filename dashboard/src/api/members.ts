//! A site's team (issue 37): the shapes of the members routes, aliases onto the generated contract types.
import type { components } from "./generated";

type Schemas = components["schemas"];

export type Role = Schemas["Role"];
export type Member = Schemas["Member"];
export type SiteMembers = Schemas["SiteMembers"];
export type Invitation = Schemas["Invitation"];
export type CreatedInvitation = Schemas["CreatedInvitation"];
export type MemberEmails = Schemas["MemberEmails"];
