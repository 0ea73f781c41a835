//! The filter bar's "Segments" menu: the site's saved segments, each applied in one pick (its filters replace
//! the URL's, so the link keeps working without the segment), and "Save as segment…" for the filters shown.
//! A segment saved "only for me" is personal: listed to its saver alone, marked "only you", and saved, changed
//! and deleted by any member (a viewer too); a segment shared with the site is the editors' and up (issue 37).
//! A viewer's save is personal, always.
import * as RadixMenu from "@radix-ui/react-dropdown-menu";
import { useId, useState } from "react";
import { useCreateSegment, useDeleteSegment, useSegments } from "../../hooks/annotations";
import { useFilters } from "../../hooks/filters";
import { useSiteRole } from "../../hooks/websites";
import { serverMessage } from "../../lib/errors";
import { atLeast } from "../../lib/roles";
import { Dialog } from "../ui/Dialog";
import { IconTrash } from "../ui/icons";
import { Button, FieldError, Input, Label } from "../ui/primitives";

const ITEM =
  "flex w-full cursor-default items-center gap-2 px-3 py-2 text-left text-sm text-gray-200 outline-none data-[highlighted]:bg-gray-800 data-[disabled]:text-gray-500";

export function SegmentsMenu({ websiteId }: { websiteId: number }) {
  const { filters, text, replace } = useFilters();
  const segments = useSegments(websiteId);
  const remove = useDeleteSegment(websiteId);
  const role = useSiteRole(websiteId);
  const editable = atLeast(role, "editor");
  const [saving, setSaving] = useState(false);
  const applied = segments.data?.find((s) => JSON.stringify(s.filters) === text);
  return (
    <>
      <RadixMenu.Root modal={false}>
        <RadixMenu.Trigger asChild>
          <Button variant="outline" size="sm" data-testid="segments-trigger">
            {applied ? `Segment: ${applied.name}` : "Segments"}
          </Button>
        </RadixMenu.Trigger>
        <RadixMenu.Portal>
          <RadixMenu.Content
            align="start"
            sideOffset={4}
            className="z-50 max-h-[min(24rem,var(--radix-dropdown-menu-content-available-height))] w-64 max-w-[calc(100vw-2rem)] overflow-y-auto rounded-lg border border-gray-800 bg-gray-900 py-1 shadow-xl shadow-black/40"
          >
            {segments.data?.length === 0 ? <p className="px-3 py-2 text-sm text-gray-500">No saved segments yet</p> : null}
            {segments.data?.map((segment) => (
              <div key={segment.id} className="flex items-center">
                <RadixMenu.Item className={`${ITEM} min-w-0 flex-1`} onSelect={() => replace(segment.filters)} data-testid="segment-item">
                  <span className="truncate">{segment.name}</span>
                  {segment.personal ? (
                    <span className="ml-auto shrink-0 text-xs text-gray-500" title="Only you see this segment">
                      only you
                    </span>
                  ) : null}
                </RadixMenu.Item>
                {(editable || segment.personal) && (
                  <RadixMenu.Item
                    aria-label={`Delete segment ${segment.name}`}
                    className="mr-1 rounded p-2 text-gray-400 outline-none data-[highlighted]:bg-red-500/10 data-[highlighted]:text-red-400 [&_svg]:h-4 [&_svg]:w-4"
                    onSelect={() => remove.mutate(segment.id)}
                  >
                    <IconTrash />
                  </RadixMenu.Item>
                )}
              </div>
            ))}
            {role !== undefined && (
              <>
                <RadixMenu.Separator className="my-1 h-px bg-gray-800" />
                <RadixMenu.Item className={ITEM} disabled={filters.length === 0} onSelect={() => setSaving(true)}>
                  Save as segment…
                </RadixMenu.Item>
              </>
            )}
          </RadixMenu.Content>
        </RadixMenu.Portal>
      </RadixMenu.Root>
      {saving ? <SaveSegmentDialog websiteId={websiteId} filters={filters} shareable={editable} onClose={() => setSaving(false)} /> : null}
    </>
  );
}

/** `shareable`: whether the caller may share a segment with the site (an editor and up); a viewer's is personal. */
function SaveSegmentDialog({
  websiteId,
  filters,
  shareable,
  onClose,
}: { websiteId: number; filters: readonly unknown[]; shareable: boolean; onClose: () => void }) {
  const [name, setName] = useState("");
  const [chosen, setPersonal] = useState(false);
  const personal = chosen || !shareable;
  const create = useCreateSegment(websiteId);
  const ids = useId();
  return (
    <Dialog
      open
      onClose={onClose}
      title="Save as segment"
      description="Name these filters to apply them again in one pick, on this site."
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={`${ids}-form`} disabled={create.isPending || name.trim() === ""}>
            Save segment
          </Button>
        </>
      }
    >
      <form
        id={`${ids}-form`}
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ name, filters, personal }, { onSuccess: onClose });
        }}
      >
        <Label htmlFor={`${ids}-name`}>Name</Label>
        <Input id={`${ids}-name`} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="Google visitors" />
        <label className="mt-3 flex items-center gap-2 text-sm text-gray-300">
          <input
            type="checkbox"
            checked={personal}
            disabled={!shareable}
            onChange={(e) => setPersonal(e.target.checked)}
            className="h-4 w-4 accent-indigo-500"
          />
          Only for me (others on this site do not see it)
        </label>
        {shareable ? null : <p className="mt-1 text-xs text-gray-500">As a viewer of this site, you save segments for yourself.</p>}
        <FieldError>{create.error ? serverMessage(create.error) : null}</FieldError>
      </form>
    </Dialog>
  );
}
