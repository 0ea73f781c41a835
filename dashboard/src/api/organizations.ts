//! Organizations visiting a site (spec part 2 §3): the list, and the owner's edit of what is known of one.
import { api } from ".";

export type OrganizationSize = "enterprise" | "large" | "medium" | "small";
export const ORGANIZATION_SIZES: readonly OrganizationSize[] = ["enterprise", "large", "medium", "small"];

export interface Organization {
  id: number;
  organizationName: string;
  /** Owner-supplied bare host name, or null. */
  domain: string | null;
  industry: string | null;
  size: string | null;
  /** Country code of the latest visit. */
  location: string;
  sessionCount: number;
  /** Percent. */
  confidence: number;
  lastSeen: string;
}

/** A PUT body: each field present replaces the stored one ("" clears). */
export interface OrganizationUpdate {
  domain?: string;
  industry?: string;
  size?: OrganizationSize | "";
}

export const organizationsApi = {
  list: (site: number) => api.get<Organization[]>(`/api/websites/${site}/organizations`),
  update: (site: number, id: number, changes: OrganizationUpdate) =>
    api.put<Organization>(`/api/websites/${site}/organizations/${id}`, changes),
};
