//! Website management dialogs: the Your Websites add dialog, the All Sites add/edit form, delete confirm.
import { useEffect, useMemo, useState } from "react";
import type { FormEvent } from "react";
import type { TrackingLevel, Website } from "../api/types";
import { usePrivacySettings, useUpdatePrivacySettings } from "../hooks/privacy";
import { useCreateWebsite, useDeleteWebsite, useUpdateWebsite } from "../hooks/websites";
import { serverMessage } from "../lib/errors";
import { timezones } from "../lib/settings";
import { TRACKING_LEVELS, normalizeNewWebsite, scriptUrlFor, validateWebsiteForm } from "../lib/website";
import type { WebsiteFormErrors } from "../lib/website";
import { useToast } from "./toast/toast";
import { Dialog } from "./ui/Dialog";
import { Button, FieldError, Input, Label, Select } from "./ui/primitives";

export const SCRIPT_URL_TOAST_MS = 10_000;

/** Your Websites add dialog: trims, prefixes https://, Missing information toast, Tracking Code Ready toast. */
export function AddWebsiteDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated?: (w: Website) => void }) {
  const create = useCreateWebsite();
  const { toast } = useToast();
  const [name, setName] = useState("");
  const [domain, setDomain] = useState("");
  const [level, setLevel] = useState<TrackingLevel>("light");

  useEffect(() => {
    if (open) {
      setName("");
      setDomain("");
      setLevel("light");
    }
  }, [open]);

  function submit(e: FormEvent) {
    e.preventDefault();
    const draft = normalizeNewWebsite({ name, domain });
    if (!draft) {
      toast({ title: "Missing information", description: "Please fill in both website name and domain.", variant: "destructive" });
      return;
    }
    create.mutate(
      { ...draft, trackingLevel: level },
      {
        onSuccess: (site) => {
          onClose();
          toast({
            title: "Tracking Code Ready",
            description: (
              <span>
                Add this script to {site.name}: <code className="break-all font-mono text-xs text-emerald-300">{scriptUrlFor(site, window.location.origin)}</code>
              </span>
            ),
            variant: "success",
            duration: SCRIPT_URL_TOAST_MS,
          });
          onCreated?.(site);
        },
        onError: (err) => toast({ title: "Failed to add website", description: serverMessage(err), variant: "destructive" }),
      },
    );
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Add Website"
      description="Register a site to get its personalised tracking code."
    >
      <form id="add-website-form" onSubmit={submit} noValidate className="space-y-4">
        <div>
          <Label htmlFor="add-name">Website name</Label>
          <Input id="add-name" placeholder="My Website" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="add-domain">Domain</Label>
          <Input id="add-domain" type="url" placeholder="https://example.com" value={domain} onChange={(e) => setDomain(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="add-level">Tracking level</Label>
          <Select id="add-level" value={level} onChange={(e) => setLevel(e.target.value as TrackingLevel)}>
            {TRACKING_LEVELS.map((l) => (
              <option key={l.value} value={l.value}>
                {l.label}
              </option>
            ))}
          </Select>
          <p className="mt-1.5 text-xs text-gray-500">{TRACKING_LEVELS.find((l) => l.value === level)?.description}</p>
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Adding..." : "Add Website"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** What recordings mask, as daemon/API.md says it (shown under the edit dialog's checkbox). */
export const MASKING_NOTE =
  "Typed input and editable text are always hidden. With this on, all page text is replaced by asterisks; layout, images and element sizes stay visible.";

/** Why loading a recording's remote assets is the owner's choice (shown under the edit dialog's checkbox). */
export const REMOTE_ASSETS_NOTE =
  "Off: replays show the recorded page without the images, fonts and stylesheets it loaded from its own servers. On: the player loads them from those servers while you watch, which tells them (and whoever reads their logs) your IP address and that the visit is being watched; font requests also name this dashboard's address. The recorded page's scripts never run either way.";

/**
 * All Sites add/edit form with inline validation messages; editing also sets the recordings' text masking and
 * whether the replay player loads the recorded page's remote assets.
 */
export function WebsiteFormDialog({ open, onClose, website }: { open: boolean; onClose: () => void; website?: Website }) {
  const create = useCreateWebsite();
  const update = useUpdateWebsite();
  const privacy = usePrivacySettings(open ? website?.id : undefined);
  const updatePrivacy = useUpdatePrivacySettings();
  const { toast } = useToast();
  const [name, setName] = useState("");
  const [domain, setDomain] = useState("");
  const [maskAllText, setMaskAllText] = useState<boolean | undefined>(undefined);
  const [remoteAssets, setRemoteAssets] = useState<boolean | undefined>(undefined);
  const [timezone, setTimezone] = useState("UTC");
  const [errors, setErrors] = useState<WebsiteFormErrors>({});
  const editing = !!website;
  const zones = useMemo(() => {
    const list = timezones();
    return website && !list.includes(website.timezone) ? [website.timezone, ...list] : list;
  }, [website]);

  useEffect(() => {
    if (open) {
      setName(website?.name ?? "");
      setDomain(website?.domain ?? "");
      setMaskAllText(undefined);
      setRemoteAssets(undefined);
      setTimezone(website?.timezone ?? "UTC");
      setErrors({});
    }
  }, [open, website]);
  const masked = maskAllText ?? privacy.data?.maskAllText ?? false;
  const loadsRemoteAssets = remoteAssets ?? privacy.data?.replayRemoteAssets ?? false;

  function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateWebsiteForm({ name, domain });
    setErrors(found);
    if (found.name || found.domain) return;
    const input = { name: name.trim(), domain: domain.trim() };
    if (website) {
      update.mutate(
        { id: website.id, ...input, ...(timezone !== website.timezone ? { timezone } : {}) },
        {
          onSuccess: () => {
            const done = () => {
              onClose();
              toast({ title: "Website updated", variant: "success" });
            };
            const changes = {
              ...(maskAllText !== undefined && maskAllText !== privacy.data?.maskAllText ? { maskAllText } : {}),
              ...(remoteAssets !== undefined && remoteAssets !== privacy.data?.replayRemoteAssets ? { replayRemoteAssets: remoteAssets } : {}),
            };
            if (Object.keys(changes).length === 0) return done();
            updatePrivacy.mutate(
              { websiteId: website.id, ...changes },
              {
                onSuccess: done,
                onError: (err) => toast({ title: "Error updating recording privacy", description: serverMessage(err), variant: "destructive" }),
              },
            );
          },
          onError: (err) => toast({ title: "Error updating website", description: serverMessage(err), variant: "destructive" }),
        },
      );
    } else {
      create.mutate(input, {
        onSuccess: () => {
          onClose();
          toast({ title: "Website added", variant: "success" });
        },
        onError: (err) => toast({ title: "Error adding website", description: serverMessage(err), variant: "destructive" }),
      });
    }
  }

  const pending = create.isPending || update.isPending || updatePrivacy.isPending;
  return (
    <Dialog open={open} onClose={onClose} title={editing ? "Edit Website" : "Add Website"} description={editing ? "Change the name or domain of this site." : "Add a new website to track."}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <div>
          <Label htmlFor="site-name">Website Name</Label>
          <Input id="site-name" placeholder="My Website" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
          <FieldError>{errors.name}</FieldError>
        </div>
        <div>
          <Label htmlFor="site-domain">Domain</Label>
          <Input id="site-domain" type="url" placeholder="https://example.com" value={domain} onChange={(e) => setDomain(e.target.value)} aria-invalid={!!errors.domain} />
          <FieldError>{errors.domain}</FieldError>
        </div>
        {editing && (
          <div>
            <Label htmlFor="site-timezone">Timezone</Label>
            <Select id="site-timezone" value={timezone} onChange={(e) => setTimezone(e.target.value)}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </Select>
            <p className="mt-1.5 text-xs text-gray-500">The site&apos;s days, weeks, months and chart hours are this timezone&apos;s.</p>
          </div>
        )}
        {editing && (
          <div>
            <label htmlFor="site-mask-all-text" className="flex items-center gap-2 text-sm text-gray-200">
              <input
                id="site-mask-all-text"
                type="checkbox"
                className="h-4 w-4 accent-emerald-500"
                checked={masked}
                disabled={!privacy.data}
                onChange={(e) => setMaskAllText(e.target.checked)}
              />
              Mask all text in session recordings
            </label>
            <p className="mt-1.5 text-xs text-gray-500">{MASKING_NOTE}</p>
          </div>
        )}
        {editing && (
          <div>
            <label htmlFor="site-replay-remote-assets" className="flex items-center gap-2 text-sm text-gray-200">
              <input
                id="site-replay-remote-assets"
                type="checkbox"
                className="h-4 w-4 accent-emerald-500"
                checked={loadsRemoteAssets}
                disabled={!privacy.data}
                onChange={(e) => setRemoteAssets(e.target.checked)}
              />
              Load remote images and fonts in replays
            </label>
            <p className="mt-1.5 text-xs text-gray-500">{REMOTE_ASSETS_NOTE}</p>
          </div>
        )}
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving..." : editing ? "Save Changes" : "Add Website"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function DeleteWebsiteDialog({ website, onClose }: { website: Website | undefined; onClose: () => void }) {
  const remove = useDeleteWebsite();
  const { toast } = useToast();
  function confirm() {
    if (!website) return;
    remove.mutate(website.id, {
      onSuccess: () => {
        onClose();
        toast({ title: "Website deleted", variant: "success" });
      },
      onError: (err) => toast({ title: "Error deleting website", description: serverMessage(err), variant: "destructive" }),
    });
  }
  return (
    <Dialog
      open={!!website}
      onClose={onClose}
      title="Delete website?"
      description={website ? `${website.name} and all of its analytics data will be permanently deleted.` : undefined}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={remove.isPending} data-autofocus>
            {remove.isPending ? "Deleting..." : "Delete"}
          </Button>
        </>
      }
    >
      <p className="text-sm text-gray-400">This cannot be undone.</p>
    </Dialog>
  );
}
