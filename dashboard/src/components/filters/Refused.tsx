//! When the daemon refuses the URL's filters (its 400 to a hand-edited link), the filter bar says why and offers
//! to clear them; the panels then say they are not shown, rather than repeating the raw error or showing zeros.
import { ApiError } from "../../api";
import { EmptyText } from "../page/QueryState";

/** Whether a read failed because the daemon refused the screen's filters. */
export function refusedFilters(active: boolean, error: unknown): boolean {
  return active && error instanceof ApiError && error.status === 400;
}

export const REFUSED_TEXT = "Not shown: the filters above cannot be applied";

export function RefusedText() {
  return <EmptyText>{REFUSED_TEXT}</EmptyText>;
}
