//! Edit what the owner knows of an organization: domain, industry and size (never guessed by the product).
import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { ORGANIZATION_SIZES } from "../../api/organizations";
import type { Organization, OrganizationSize } from "../../api/organizations";
import { useUpdateOrganization } from "../../hooks/organizations";
import { serverMessage } from "../../lib/errors";
import { sentenceEndingWith } from "../../lib/format";
import { normaliseDomain } from "../../lib/organizations";
import { useToast } from "../toast/toast";
import { Dialog } from "../ui/Dialog";
import { Button, FieldError, Input, Label, Select } from "../ui/primitives";

export function OrganizationDialog({ websiteId, org, onClose }: { websiteId: number; org: Organization | null; onClose: () => void }) {
  const update = useUpdateOrganization(websiteId);
  const { toast } = useToast();
  const [domain, setDomain] = useState("");
  const [industry, setIndustry] = useState("");
  const [size, setSize] = useState<OrganizationSize | "">("");
  const [error, setError] = useState("");

  useEffect(() => {
    if (org) {
      setDomain(org.domain ?? "");
      setIndustry(org.industry ?? "");
      setSize((ORGANIZATION_SIZES as readonly string[]).includes(org.size ?? "") ? (org.size as OrganizationSize) : "");
      setError("");
    }
  }, [org]);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!org) return;
    const host = normaliseDomain(domain);
    if (host === null) {
      setError("Enter a domain such as example.com");
      return;
    }
    setError("");
    update.mutate(
      { id: org.id, changes: { domain: host, industry: industry.trim(), size } },
      {
        onSuccess: () => {
          onClose();
          toast({ title: "Organization Updated", description: `${org.organizationName} has been saved.`, variant: "success" });
        },
        onError: (err) => setError(serverMessage(err)),
      },
    );
  }

  return (
    <Dialog open={org !== null} onClose={onClose} title="Edit Organization" description={org ? `${sentenceEndingWith("What you know of ", org.organizationName)} Left empty, it shows as unknown.` : undefined}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <div>
          <Label htmlFor="org-domain">Domain</Label>
          <Input id="org-domain" value={domain} onChange={(e) => setDomain(e.target.value)} placeholder="example.com" inputMode="url" maxLength={260} />
        </div>
        <div>
          <Label htmlFor="org-industry">Industry</Label>
          <Input id="org-industry" value={industry} onChange={(e) => setIndustry(e.target.value)} placeholder="Retail" maxLength={100} />
        </div>
        <div>
          <Label htmlFor="org-size">Size</Label>
          <Select id="org-size" value={size} onChange={(e) => setSize(e.target.value as OrganizationSize | "")}>
            <option value="">Unknown</option>
            {ORGANIZATION_SIZES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </div>
        <FieldError>{error}</FieldError>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? "Saving..." : "Save"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
