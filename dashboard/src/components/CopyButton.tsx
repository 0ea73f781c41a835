//! Copy-to-clipboard button with the 2-second copied state and the spec's toasts.
import { useEffect, useState } from "react";
import { useToast } from "./toast/toast";
import { Button } from "./ui/primitives";
import { IconCheck, IconCopy } from "./ui/icons";

export const COPIED_STATE_MS = 2000;

export function CopyButton({ text, label, copiedLabel, successTitle, successDescription }: { text: string; label: string; copiedLabel: string; successTitle: string; successDescription: string }) {
  const [copied, setCopied] = useState(false);
  const { toast } = useToast();

  useEffect(() => {
    if (!copied) return;
    const t = window.setTimeout(() => setCopied(false), COPIED_STATE_MS);
    return () => window.clearTimeout(t);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast({ title: successTitle, description: successDescription, variant: "success" });
    } catch {
      toast({ title: "Copy failed", description: "Could not copy to clipboard. Please copy manually.", variant: "destructive" });
    }
  }

  return (
    <Button variant="outline" size="sm" onClick={copy}>
      {copied ? <IconCheck className="text-emerald-400" /> : <IconCopy />}
      {copied ? copiedLabel : label}
    </Button>
  );
}
