//! Settings, Data & Privacy: the account's data as a JSON download at once (REAL.md), and account deletion
//! behind a password dialog (logs out on success).
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useLogout } from "../../hooks/auth";
import { useExportAccount } from "../../hooks/settings";
import { serverMessage } from "../../lib/errors";
import { exportFileName } from "../../lib/settings";
import { useToast } from "../toast/toast";
import { Button, Card, CardBody, CardHeader } from "../ui/primitives";
import { DeleteAccountDialog } from "./AccountDialogs";

function download(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function DataPrivacyTab() {
  const exportData = useExportAccount();
  const logout = useLogout();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [deleting, setDeleting] = useState(false);

  function requestExport() {
    exportData.mutate(undefined, {
      onSuccess: (text) => {
        download(text, exportFileName());
        toast({ title: "Data Export", description: "Your data export has started downloading." });
      },
      onError: (err) => toast({ title: "Export failed", description: serverMessage(err), variant: "destructive" }),
    });
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Data Export" description="Download your profile, websites, settings, funnels and event definitions as JSON" />
        <CardBody>
          <Button variant="outline" onClick={requestExport} disabled={exportData.isPending}>
            {exportData.isPending ? "Preparing..." : "Request Data Export"}
          </Button>
        </CardBody>
      </Card>
      <Card className="border-red-500/30">
        <CardHeader title="Delete Account" description="Permanently delete your account, your websites and all their data" />
        <CardBody>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete Account
          </Button>
        </CardBody>
      </Card>
      <DeleteAccountDialog
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => {
          logout();
          navigate("/auth", { replace: true });
        }}
      />
    </div>
  );
}
