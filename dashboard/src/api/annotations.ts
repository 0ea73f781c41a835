//! Annotations (dated notes on a site's chart, issue 37) and saved segments (named filter sets, issue 36): types
//! aliased onto the generated contract, and their fetchers.
import { api } from ".";
import type { components } from "./generated";

type Schemas = components["schemas"];

export type Annotation = Schemas["Annotation"];
export type AnnotationMark = Schemas["AnnotationMark"];
export type SavedSegment = Schemas["SavedSegment"];

/** The body of a create or a change: the day (YYYY-MM-DD) and one line of text (280 characters at most). */
export interface AnnotationInput {
  date: string;
  text: string;
}

/** The body of a saved segment: its name, its filters as the URL holds them (a JSON array), and whether only its
 * saver sees it (shared with the site when absent). */
export interface SegmentInput {
  name: string;
  filters: readonly unknown[];
  personal?: boolean;
}

export const annotationsApi = {
  create: (site: number, input: AnnotationInput) => api.post<Annotation>(`/api/websites/${site}/annotations`, input),
  update: (site: number, id: number, input: AnnotationInput) => api.put<Annotation>(`/api/websites/${site}/annotations/${id}`, input),
  remove: (site: number, id: number) => api.del(`/api/websites/${site}/annotations/${id}`),
};

export const segmentsApi = {
  list: (site: number) => api.get<SavedSegment[]>(`/api/websites/${site}/segments`),
  create: (site: number, input: SegmentInput) => api.post<SavedSegment>(`/api/websites/${site}/segments`, input),
  remove: (site: number, id: number) => api.del(`/api/websites/${site}/segments/${id}`),
};
