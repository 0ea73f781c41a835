//! Keeps the browser tab's title on the current screen and site (src/screens.ts).
import { useEffect } from "react";
import { useLocation, useSearchParams } from "react-router-dom";
import { documentTitle } from "../screens";
import { useWebsites } from "./websites";

/** The title of the screen at the current path; the site is the one in `?website=`, as the pages select it. */
export function useDocumentTitle() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const websites = useWebsites();
  const requested = Number(params.get("website"));
  const site = websites.data?.find((w) => w.id === requested) ?? websites.data?.[0];
  const title = documentTitle(pathname, site?.name);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
