//! Settings, Profile: full name, email (changed from the Security tab) and whether it is verified, company,
//! timezone, account status.
import { useMemo, useState } from "react";
import type { FormEvent } from "react";
import { ApiError } from "../../api";
import type { Profile } from "../../api/settings";
import { useResendEmailLink, useUpdateProfile } from "../../hooks/settings";
import { serverMessage } from "../../lib/errors";
import { timezones } from "../../lib/settings";
import { useToast } from "../toast/toast";
import { Badge, Button, Card, CardBody, CardHeader, Input, Label, Select } from "../ui/primitives";

export function ProfileTab({ profile, emailConfigured }: { profile: Profile; emailConfigured: boolean }) {
  const update = useUpdateProfile();
  const { toast } = useToast();
  const [name, setName] = useState(profile.name);
  const [company, setCompany] = useState(profile.company);
  const [timezone, setTimezone] = useState(profile.timezone);
  const zones = useMemo(() => {
    const list = timezones();
    return list.includes(profile.timezone) ? list : [profile.timezone, ...list];
  }, [profile.timezone]);

  function submit(e: FormEvent) {
    e.preventDefault();
    update.mutate(
      { name, company, timezone },
      {
        onSuccess: () => toast({ title: "Profile Updated", description: "Your profile settings have been saved successfully.", variant: "success" }),
        onError: (err) =>
          toast({
            title: "Error",
            description: err instanceof ApiError ? serverMessage(err) || "Failed to update profile." : "Failed to update profile. Please try again.",
            variant: "destructive",
          }),
      },
    );
  }

  return (
    <Card>
      <CardHeader title="Profile Information" description="Update your personal information" />
      <CardBody>
        <form onSubmit={submit} className="space-y-4" aria-label="Profile">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <div>
              <Label htmlFor="profile-name">Full Name</Label>
              <Input id="profile-name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Your name" />
            </div>
            <div>
              <Label htmlFor="profile-email">Email</Label>
              <Input id="profile-email" type="email" value={profile.email} readOnly disabled />
              {emailConfigured && !profile.emailVerified && <UnverifiedEmail />}
            </div>
            <div>
              <Label htmlFor="profile-company">Company</Label>
              <Input id="profile-company" autoComplete="organization" value={company} onChange={(e) => setCompany(e.target.value)} placeholder="Your company" />
            </div>
            <div>
              <Label htmlFor="profile-timezone">Timezone</Label>
              <Select id="profile-timezone" value={timezone} onChange={(e) => setTimezone(e.target.value)}>
                {zones.map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          <div className="flex flex-col gap-4 border-t border-gray-800 pt-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex flex-wrap items-center gap-2 text-sm text-gray-400">
              Account Status <Badge tone="green">Active</Badge>
            </p>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? "Saving..." : "Save Changes"}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

/** "Not verified": no report or alert goes to the address until the link mailed to it is followed; sends a new one. */
function UnverifiedEmail() {
  const resend = useResendEmailLink();
  const { toast } = useToast();
  function send() {
    resend.mutate(undefined, {
      onSuccess: () => toast({ title: "Link Sent", description: "Open the link in the email to verify your address.", variant: "success" }),
      onError: (err) => toast({ title: "Error", description: serverMessage(err) || "Failed to send the link.", variant: "destructive" }),
    });
  }
  return (
    <p role="status" data-testid="email-not-verified" className="mt-2 flex flex-wrap items-center gap-2 text-xs text-amber-200">
      <Badge tone="yellow">Not verified</Badge>
      No reports or alerts are sent until you follow the link mailed to this address.
      <Button variant="outline" size="sm" onClick={send} disabled={resend.isPending}>
        {resend.isPending ? "Sending..." : "Resend link"}
      </Button>
    </p>
  );
}
