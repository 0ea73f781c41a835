//! Website management dialogs: the Your Websites add dialog, the All Sites add/edit form, delete confirm.
import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import type { TrackingLevel, Website } from "../api/types";
import { useCreateWebsite, useDeleteWebsite, useUpdateWebsite } from "../hooks/websites";
import { serverMessage } from "../lib/errors";
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

/** All Sites add/edit form with inline validation messages. */
export function WebsiteFormDialog({ open, onClose, website }: { open: boolean; onClose: () => void; website?: Website }) {
  const create = useCreateWebsite();
  const update = useUpdateWebsite();
  const { toast } = useToast();
  const [name, setName] = useState("");
  const [domain, setDomain] = useState("");
  const [errors, setErrors] = useState<WebsiteFormErrors>({});
  const editing = !!website;

  useEffect(() => {
    if (open) {
      setName(website?.name ?? "");
      setDomain(website?.domain ?? "");
      setErrors({});
    }
  }, [open, website]);

  function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateWebsiteForm({ name, domain });
    setErrors(found);
    if (found.name || found.domain) return;
    const input = { name: name.trim(), domain: domain.trim() };
    if (website) {
      update.mutate(
        { id: website.id, ...input },
        {
          onSuccess: () => {
            onClose();
            toast({ title: "Website updated", variant: "success" });
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

  const pending = create.isPending || update.isPending;
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
