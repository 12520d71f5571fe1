import { useEffect, useState } from "react";
import { icons } from "../../lib/icons";

/** How long the copy button shows its tick (spec: copy tick in export). */
export const COPY_TICK_MS = 1200;
/** How long a download's blob URL lives before it is released (spec: save-helper blob URL release). */
export const BLOB_URL_RELEASE_MS = 40_000;

/** Saves text as a file through a temporary blob URL. */
export function saveAsFile(text: string, fileName: string, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Released later, not at once: some browsers start reading the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), BLOB_URL_RELEASE_MS);
}

/**
 * "Copy" (to the clipboard, then a tick for 1200 ms) and "Download" (a .json file) for a JSON
 * text. When the clipboard refuses, `onCopyRefused` lets the caller select the text instead.
 */
export function JsonActions({ json, fileName, onCopyRefused }: { json: string | undefined; fileName: string; onCopyRefused: () => void }) {
  // A counter, not a flag: a second copy within the tick restarts the 1200 ms.
  const [copies, setCopies] = useState(0);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (copies === 0) return;
    setCopied(true);
    const timer = setTimeout(() => setCopied(false), COPY_TICK_MS);
    return () => clearTimeout(timer);
  }, [copies]);

  async function copy() {
    if (json === undefined) return;
    try {
      await navigator.clipboard.writeText(json);
      setCopies((n) => n + 1);
    } catch {
      onCopyRefused();
    }
  }

  return (
    <div className="dialog-actions graph-export-actions">
      <button type="button" className="button" disabled={json === undefined} onClick={copy}>
        {copied ? <>{icons.check()} Copied</> : <>{icons.copy()} Copy</>}
      </button>
      <button
        type="button"
        className="button primary"
        disabled={json === undefined}
        onClick={() => json !== undefined && saveAsFile(json, fileName)}
      >
        {downloadIcon} Download
      </button>
    </div>
  );
}

const downloadIcon = (
  <svg
    width={20}
    height={20}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="M12 4v11" />
    <path d="m7 10 5 5 5-5" />
    <path d="M5 20h14" />
  </svg>
);
