//! "Share" for one site (issue 37): make a read-only link (a name, an optional password, the screen's current
//! filters if wanted, and for an embed the origins allowed to frame it), list the site's links with their
//! address and, for embed links, the iframe snippet, and delete one after a confirmation.
import { type FormEvent, useState } from "react";
import type { SharedLink } from "../api/share";
import type { Website } from "../api/types";
import { useCreateSharedLink, useDeleteSharedLink, useSharedLinks } from "../hooks/share";
import { serverMessage } from "../lib/errors";
import { CopyButton } from "./CopyButton";
import { EmptyText, QueryState } from "./page/QueryState";
import { Dialog } from "./ui/Dialog";
import { Badge, Button, FieldError, Input, Label } from "./ui/primitives";

/** The iframe an owner pastes into a page of one of the link's origins. */
export function iframeSnippet(link: SharedLink): string {
  return `<iframe src="${link.url}?embed=true" width="100%" height="900" style="border:0" loading="lazy" title="${link.name.replace(/"/g, "&quot;")}"></iframe>`;
}

export function ShareDialog({ website, filters, open, onClose }: { website: Website | undefined; filters?: string | null; open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open && !!website} onClose={onClose} title={`Share ${website?.name ?? ""}`} description="Read-only links to this site's dashboard, for people without an account." size="lg">
      {website ? <ShareCard website={website} filters={filters ?? null} /> : null}
    </Dialog>
  );
}

export function ShareCard({ website, filters }: { website: Website; filters: string | null }) {
  const links = useSharedLinks(website.id);
  return (
    <div className="space-y-6" data-testid="share-card">
      <NewLinkForm website={website} filters={filters} />
      <QueryState query={links} isEmpty={(l) => l.length === 0} empty={<EmptyText>No share links yet</EmptyText>}>
        {(list) => (
          <ul className="divide-y divide-gray-800" data-testid="share-links">
            {list.map((link) => (
              <LinkRow key={link.id} website={website} link={link} />
            ))}
          </ul>
        )}
      </QueryState>
    </div>
  );
}

function NewLinkForm({ website, filters }: { website: Website; filters: string | null }) {
  const create = useCreateSharedLink(website.id);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [withFilters, setWithFilters] = useState(false);
  const [embed, setEmbed] = useState(false);
  const [origins, setOrigins] = useState("");
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(
      {
        name,
        password: password || undefined,
        filters: withFilters && filters ? filters : undefined,
        embed,
        allowedOrigins: embed ? origins.split(/[\s,]+/).filter(Boolean) : undefined,
      },
      {
        onSuccess: () => {
          setName("");
          setPassword("");
        },
      },
    );
  }
  return (
    <form onSubmit={submit} className="space-y-3" data-testid="share-new-link">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor="share-name">Name</Label>
          <Input id="share-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Client report" maxLength={100} required />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="share-link-password">Password (optional)</Label>
          <Input id="share-link-password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
      </div>
      {filters ? (
        <label className="flex items-center gap-2 text-sm text-gray-300">
          <input type="checkbox" checked={withFilters} onChange={(e) => setWithFilters(e.target.checked)} />
          Only what the current filters show
        </label>
      ) : null}
      <label className="flex items-center gap-2 text-sm text-gray-300">
        <input type="checkbox" checked={embed} onChange={(e) => setEmbed(e.target.checked)} />
        Allow embedding in an iframe
      </label>
      {embed ? (
        <div className="space-y-1.5">
          <Label htmlFor="share-origins">Allowed origins (space or comma separated, e.g. https://example.com)</Label>
          <Input id="share-origins" value={origins} onChange={(e) => setOrigins(e.target.value)} placeholder="https://example.com" />
        </div>
      ) : null}
      <FieldError>{create.error ? serverMessage(create.error) : undefined}</FieldError>
      <Button type="submit" disabled={create.isPending || name.trim() === ""}>
        {create.isPending ? "Creating..." : "Create link"}
      </Button>
    </form>
  );
}

function LinkRow({ website, link }: { website: Website; link: SharedLink }) {
  const remove = useDeleteSharedLink(website.id);
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="space-y-2 py-3" data-testid="share-link">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium text-gray-100">{link.name}</span>
        {link.passwordRequired ? <Badge tone="gray">Password</Badge> : null}
        {link.embed ? <Badge tone="green">Embed</Badge> : null}
        {link.filters !== "[]" ? <Badge tone="gray">Filtered</Badge> : null}
        <div className="ml-auto flex items-center gap-2">
          {link.url ? <CopyButton text={link.url} label="Copy URL" copiedLabel="Copied" successTitle="Link copied" successDescription="The share link is on your clipboard." /> : null}
          {confirming ? (
            <>
              <Button size="sm" variant="danger" onClick={() => remove.mutate(link.id)} disabled={remove.isPending}>
                Delete link
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
                Keep
              </Button>
            </>
          ) : (
            <Button size="sm" variant="ghost" onClick={() => setConfirming(true)} aria-label={`Delete ${link.name}`}>
              Delete
            </Button>
          )}
        </div>
      </div>
      {link.url ? (
        <p className="truncate font-mono text-xs text-gray-400">{link.url}</p>
      ) : (
        <p className="text-xs text-amber-300">This link's address cannot be shown since the server's secret changed. It still opens for whoever has it; delete it and create a new one to share again.</p>
      )}
      {link.url && link.embed ? (
        <div className="space-y-1">
          <p className="text-xs text-gray-500">Framable by {link.allowedOrigins.join(", ")}</p>
          <pre className="overflow-x-auto rounded-md bg-gray-950 p-2 text-xs text-gray-300" data-testid="share-iframe">
            {iframeSnippet(link)}
          </pre>
          <CopyButton text={iframeSnippet(link)} label="Copy iframe" copiedLabel="Copied" successTitle="Snippet copied" successDescription="Paste it into a page of an allowed origin." />
        </div>
      ) : null}
    </li>
  );
}
