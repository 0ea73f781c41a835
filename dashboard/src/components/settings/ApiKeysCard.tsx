//! Settings, Security: the API Keys card (issue 36): the account's keys (name, scope, prefix, created, last
//! used), a create dialog (name and scope) that shows the new key's secret once with a copy button, and revoke
//! with a confirmation. The secret lives only in the create dialog's state, never in the cached list.
import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import type { ApiKey, ApiKeyScope, CreatedApiKey } from "../../api/settings";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../../hooks/settings";
import { serverMessage } from "../../lib/errors";
import { formatDate, relativeTime } from "../../lib/time";
import { CopyButton } from "../CopyButton";
import { EmptyText, QueryState } from "../page/QueryState";
import { useToast } from "../toast/toast";
import { Dialog } from "../ui/Dialog";
import { Badge, Button, Card, CardBody, CardHeader, FieldError, Input, Label, Select } from "../ui/primitives";

/** The longest name the server accepts. */
const NAME_MAX = 100;

export function ApiKeysCard() {
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | undefined>();
  return (
    <Card data-testid="api-keys">
      <CardHeader
        title="API Keys"
        description="Keys for scripts and integrations, sent as Authorization: Bearer <key>. Read keys only read; no key can change your password, email, two-factor or keys."
        action={
          <Button size="sm" onClick={() => setCreating(true)}>
            Create API Key
          </Button>
        }
      />
      <CardBody>
        <QueryState query={keys} isEmpty={(list) => list.length === 0} empty={<EmptyText>No API keys yet.</EmptyText>}>
          {(list) => (
            <ul className="divide-y divide-gray-800" data-testid="api-key-list">
              {list.map((key) => (
                <li key={key.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="api-key">
                  <div className="min-w-0">
                    <div className="flex items-center gap-2">
                      <span className="truncate text-sm font-medium text-gray-100">{key.name}</span>
                      <Badge tone={key.scope === "write" ? "yellow" : "blue"}>{key.scope}</Badge>
                    </div>
                    <p className="mt-0.5 text-xs text-gray-500">
                      <code className="font-mono text-gray-400">{key.prefix}…</code> · Created {formatDate(key.createdAt)} · {key.lastUsedAt ? `Last used ${relativeTime(key.lastUsedAt)}` : "Never used"}
                    </p>
                  </div>
                  <Button variant="outline" size="sm" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </CardBody>
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
      <RevokeApiKeyDialog apiKey={revoking} onClose={() => setRevoking(undefined)} />
    </Card>
  );
}

function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const { toast } = useToast();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiKeyScope>("read");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh start each time the dialog opens
  useEffect(() => {
    if (!open) return;
    setName("");
    setScope("read");
    setCreated(null);
    create.reset();
  }, [open]);

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(
      { name: name.trim(), scope },
      {
        onSuccess: (key) => setCreated(key),
        onError: (err) => toast({ title: "Error creating API key", description: serverMessage(err), variant: "destructive" }),
      },
    );
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onClose={onClose}
        title="API Key Created"
        description="Copy this key now: it will not be shown again. Anyone holding it can use your account within its scope."
        footer={
          <>
            <CopyButton text={created.secret} label="Copy Key" copiedLabel="Copied!" successTitle="Key copied!" successDescription="The API key has been copied to your clipboard." />
            <Button onClick={onClose}>Done</Button>
          </>
        }
      >
        <p className="mb-2 text-sm text-gray-300">
          {created.name} <Badge tone={created.scope === "write" ? "yellow" : "blue"}>{created.scope}</Badge>
        </p>
        <code className="block break-all rounded-md border border-gray-800 bg-gray-950 px-3 py-2 font-mono text-sm text-emerald-300" data-testid="api-key-secret">
          {created.secret}
        </code>
      </Dialog>
    );
  }

  const trimmed = name.trim();
  const tooLong = [...trimmed].length > NAME_MAX;
  return (
    <Dialog open={open} onClose={onClose} title="Create API Key" description="Name it after what will use it, and give it only the scope it needs.">
      <form onSubmit={submit} className="space-y-4" aria-label="Create API Key">
        <div>
          <Label htmlFor="api-key-name">Name</Label>
          <Input id="api-key-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Grafana dashboard" />
          <FieldError>{tooLong ? `At most ${NAME_MAX} characters.` : create.error ? serverMessage(create.error) : null}</FieldError>
        </div>
        <div>
          <Label htmlFor="api-key-scope">Scope</Label>
          <Select id="api-key-scope" value={scope} onChange={(e) => setScope(e.target.value as ApiKeyScope)}>
            <option value="read">Read: GET requests only</option>
            <option value="write">Write: everything but the account's security</option>
          </Select>
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!trimmed || tooLong || create.isPending}>
            {create.isPending ? "Creating..." : "Create Key"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function RevokeApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | undefined; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  const { toast } = useToast();
  function confirm() {
    if (!apiKey) return;
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        onClose();
        toast({ title: "API key revoked", variant: "success" });
      },
      onError: (err) => toast({ title: "Error revoking API key", description: serverMessage(err), variant: "destructive" }),
    });
  }
  return (
    <Dialog
      open={!!apiKey}
      onClose={onClose}
      title="Revoke API key?"
      description={apiKey ? `${apiKey.name} (${apiKey.prefix}…) stops working at once.` : undefined}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={revoke.isPending} data-autofocus>
            {revoke.isPending ? "Revoking..." : "Revoke"}
          </Button>
        </>
      }
    >
      <p className="text-sm text-gray-400">Whatever uses it gets 401 from its next request. This cannot be undone.</p>
    </Dialog>
  );
}
