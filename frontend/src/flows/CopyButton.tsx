import { useState } from "react";
import { Button } from "../components/ui";

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2000);
  };
  return (
    <Button variant="secondary" aria-label={label} onClick={() => void copy()}>
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed: select and copy" : "Copy"}
    </Button>
  );
}
