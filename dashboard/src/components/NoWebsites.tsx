//! Shown by the site-scoped screens when the user has no website yet.
import { Link } from "react-router-dom";
import { IconGlobe, IconPlus } from "./ui/icons";
import { Card, EmptyState } from "./ui/primitives";

export function NoWebsites({ title = "No Websites Found", description = "Create your first website to start tracking analytics." }: { title?: string; description?: string }) {
  return (
    <Card>
      <EmptyState
        icon={<IconGlobe />}
        title={title}
        description={description}
        action={
          <Link to="/websites" className="inline-flex h-10 items-center gap-2 rounded-lg bg-indigo-500 px-4 text-sm font-medium text-white hover:bg-indigo-400">
            <IconPlus className="h-4 w-4" />
            Add Website
          </Link>
        }
      />
    </Card>
  );
}
