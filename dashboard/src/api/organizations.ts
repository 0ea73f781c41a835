//! Organizations visiting a site (spec part 2 §3): the list, and the owner's edit of what is known of one.
import { api } from ".";
import type { components } from "./generated";

export type OrganizationSize = "enterprise" | "large" | "medium" | "small";
export const ORGANIZATION_SIZES: readonly OrganizationSize[] = ["enterprise", "large", "medium", "small"];

export type Organization = components["schemas"]["OrganizationSummary"];

/** A PUT body: each field present replaces the stored one ("" clears); `size` is one of ORGANIZATION_SIZES. */
export type OrganizationUpdate = components["schemas"]["OrganizationUpdate"];

export const organizationsApi = {
  list: (site: number) => api.get<Organization[]>(`/api/websites/${site}/organizations`),
  update: (site: number, id: number, changes: OrganizationUpdate) =>
    api.put<Organization>(`/api/websites/${site}/organizations/${id}`, changes),
};
